"""Claim (memory.md: "every stored value goes into the brief as one length-limited JSON string";
each hit's why is "on one line"; the evidence rule compares failing test names and functions the
failure went through; cli.md: no traceback). Attack: an imported record of this project whose
failing test id is 1,500 characters and whose `in:` line names 330 functions (a first run with
60,000 and 3,000 showed a symptom and a query are held to 4,000 characters: refused, said); the query
names the same id and functions. HELD when `memory search` and MCP
`search_fixes` answer (exit 0, no traceback) in bounded time and the MCP answer stays bounded
(under 100,000 characters)."""
import os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r7 import *

HUGE = "test_add[" + "x" * 1500 + "]"
FRAMES = "in: " + ", ".join(f"f_{i}" for i in range(330)) + "\n"
c = Case("c06")
lines = learned_template(c)
rec = lines[0]
rec["symptom"] = rec["symptom"].replace("failing tests: add", "failing tests: " + HUGE) + "\n" + FRAMES
imp, _ = import_fixing_id(c, lines)
r, fix = det_repo(c)
clone = bug_clone(c, r)
q = f"AssertionError\nfailing tests: {HUGE}\n{FRAMES}failing code: assert add(2, 3) == 5\ncompared: assert -1 == 5"
t = time.time()
s = c.astra(["memory", "search", q, "--project", clone], timeout=300)
ts = time.time() - t
print("search", s.returncode, f"{ts:.1f}s", len(s.stdout), s.stdout[:1500], s.stderr[-1500:])
t = time.time()
try:
    mtext, _ = mcp_call(c, "search_fixes", {"failure": q, "project": clone})
except Exception as e:
    mtext = f"MCP ERROR {e!r}"
tm = time.time() - t
print("mcp", f"{tm:.1f}s", len(mtext), mtext[:1500])
tb = "Traceback" in s.stderr or "MCP ERROR" in mtext
verdict(tb or s.returncode != 0 or len(mtext) > 100000 or ts > 120 or tm > 120,
        f"import rc {imp.returncode}; search rc {s.returncode} in {ts:.1f}s, {len(s.stdout)} chars; MCP answer {len(mtext)} chars in {tm:.1f}s; traceback: {tb}")

"""Claim (memory.md: "With nothing left, the model and the person read 'No confident match: no fix
shown' (the progress line says it too) instead of fixes for other causes"; another project's fix
needs a cosine of at least 0.50; mcp.md: `search_fixes` returns fixes "or 'no confident match'").
Attack: memory holds only another project's fix (calc, imported and learned); an unrelated project
(textutil) fails a slug test. The same failure goes through the three paths: `memory search
--project`, MCP `search_fixes(project=...)`, and a no-model `run --workspace`. Also a failure that
names no test at all (`KeyError: 'x'`). HELD when every path shows no fix of calc and says "no
confident match", and none replays."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r7 import *

c = Case("c07")
r, fix = det_repo(c)
p, data = c.learn(r.root)
print("learn", p.returncode, result_of(row_for(data, fix)))
t = c.repo("textutil")
SRC = "def slugify(s):\n    return s.replace(' ', '-')\n"
TST = "from textutil import slugify\n\n\ndef test_slugify_lower():\n    assert slugify('Hello World') == 'hello-world'\n"
t.commit("start", {"textutil.py": SRC, "tests/test_slug.py": TST}, date=DATE)
pr, rep = run_ws(c, t.root)
txt = c.astra(["run", "--workspace", t.root, "--test-command", TEST_CMD, "--python", PY, "--no-approve-edits"])
print("run", pr.returncode, rep.get("status"), txt.stdout[-2500:])
q = rep.get("memory_query") or "AssertionError\nfailing tests: slugify lower\ncompared: assert 'Hello-World' == 'hello-world'"
s = c.astra(["memory", "search", q, "--project", t.root])
print("search", s.returncode, s.stdout[-2000:])
mt, _ = mcp_call(c, "search_fixes", {"failure": q, "project": t.root})
print("mcp", mt[:2000])
s2 = c.astra(["memory", "search", "KeyError: 'x'", "--project", t.root])
mt2, _ = mcp_call(c, "search_fixes", {"failure": "KeyError: 'x'"})
print("no test names: search", s2.stdout[-800:], "| mcp", mt2[:800])
paths = {"run": txt.stdout + txt.stderr, "search": s.stdout, "mcp": mt, "search-no-tests": s2.stdout, "mcp-no-tests": mt2}
shown = [k for k, v in paths.items() if "calc.py" in v or "return a + b" in v]
said = {k: ("no confident match" in v.lower()) for k, v in paths.items()}
changed = open(os.path.join(t.root, "textutil.py")).read() != SRC
verdict(bool(shown) or not all(said.values()) or changed,
        f"calc's fix shown by {shown}; 'no confident match' said: {said}; textutil changed: {changed}")

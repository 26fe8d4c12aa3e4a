"""Claim (memory.md: "The same commit learned twice is one record"; "two processes storing and
searching one memory file at once neither fail nor lose a record"; cli.md: one runner per thread).
Attack: two `astra-memory learn` processes on the same repository at once (two fix commits), then
two `learn --resume` of one thread at once. HELD when both learns end without an error, there is
exactly one record per fix, and the second concurrent resume is refused naming the holder (or has
nothing to do)."""
import os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c18")
r = base_repo(c)
a = r.commit("Fix add", {"calc.py": CALC_FIXED, "tests/test_add.py": ADD_TEST})
b = r.commit("Fix mul", {"calc.py": CALC_FIXED.replace("a * b", "a * b  # fixed"),
                         "tests/test_mul2.py": "from calc import mul\n\n\ndef test_mul2():\n    assert mul(3, 3) == 9\n"})
args = ["learn", "--workspace", r.root, "--python", PY, "--test-command", TEST_CMD, "--json"]
p1, p2 = c.popen(args), c.popen(args)
o1, e1 = p1.communicate(timeout=240)
o2, e2 = p2.communicate(timeout=240)
print("learn 1 rc", p1.returncode, e1[-500:])
print("learn 2 rc", p2.returncode, e2[-500:])
for o in (o1, o2):
    try:
        d = json.loads(o)
        print("rows", [(x.get("sha", "")[:8], result_of(x), x.get("reason")) for x in rows_of(d)])
    except Exception:
        print("stdout", o[-300:])
recs = c.records()
print("records", [(x.get("memory_id"), len(x.get("confirmations") or [])) for x in recs])
problems = []
if p1.returncode or p2.returncode:
    problems.append(f"exit codes {p1.returncode}, {p2.returncode}")
if "locked" in e1 + e2 or "Traceback" in e1 + e2:
    problems.append("database locked / traceback")
if len(recs) != 1 or len({x.get("memory_id") for x in recs}) != len(recs):
    problems.append(f"{len(recs)} records for 1 fix (the mul commit only adds a comment)")
verdict(bool(problems), f"{problems or 'ok'}; records={[(x.get('file_paths'), len(x.get('confirmations') or [])) for x in recs]}")

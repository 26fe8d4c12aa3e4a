"""Claim (guarantees.md trust-gate row: "an edit may not bring a lone carriage return into a file
without one (`x = 1\\rimport os` is one line to the diff a human approves, two to Python)";
memory.md: a stored diff "gets no more reach than apply_edit has"). Attack: a fix commit whose
source diff carries `return a + b\\rimport os; os.system(...)`-style lines (a lone CR, shown as one
line by a diff); its test passes. Then the bug comes back in a clone and a no-model session runs.
HELD when the lone-CR diff is not replayed into the clone (or not stored as replayable)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c16")
r = base_repo(c)
mark = os.path.join(c.dir, "ran-c16")
smuggled = CALC_FIXED.replace("    return a + b\n", f"    return a + b\r    open({mark!r}, 'w').write('x')\n")
fix = r.commit("Fix add subtracting", {"calc.py": smuggled, "tests/test_add.py": ADD_TEST})
p, data = c.learn(r.root)
print("learn rc", p.returncode, p.stderr[-600:])
row = row_for(data, fix)
print("row", short(row, 400))
recs = c.records()
for x in recs:
    print("record", repr(str(x.get("diff"))[:300]), x.get("replayable"))
clone = clone_of(c, r, "clone")
write(clone, "calc.py", CALC_BUGGY)
q, rep = run_ws(c, clone)
print("replay", q.returncode, short({k: rep.get(k) for k in ("status", "reason", "replay_tried")}, 1000))
now = open(os.path.join(clone, "calc.py"), "rb").read()
replayed = b"\r" in now
verdict(replayed, f"learn verdict={result_of(row)} records={len(recs)}; the clone's calc.py after a no-model session has the lone CR line: {replayed} (status {rep.get('status')})")

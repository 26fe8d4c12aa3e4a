"""Control. Claim (memory.md "Learning from history", guarantees.md learn row): an honest fix commit
(a test added that fails at its parent, a source change that makes it pass) is confirmed and stored
once, with its provenance, and replays with no model in a clone of the same repository where the
bug came back. Without this every HELD below means nothing."""
import os, shutil, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c01")
r = base_repo(c)
fix = r.commit("Fix add() subtracting instead of adding", {"calc.py": CALC_FIXED, "tests/test_add.py": ADD_TEST})
p, data = c.learn(r.root)
print("learn rc", p.returncode, short(data, 1500), p.stderr[-800:])
row = row_for(data, fix)
recs = c.records()
print("records", short(recs, 1500))
# the bug comes back in a clone (same project): replay with no model
clone = clone_of(c, r, "clone")
write(clone, "calc.py", CALC_BUGGY)
q, rep = run_ws(c, clone)
print("run rc", q.returncode, short(rep, 1500), q.stderr[-600:])
fixed_now = open(os.path.join(clone, "calc.py")).read() == CALC_FIXED
verdict(not (result_of(row) == "confirmed" and len(recs) == 1 and fixed_now and q.returncode == 0),
        f"control: learn row={short(row, 300)} records={len(recs)} clone replay rc={q.returncode} calc fixed={fixed_now}")

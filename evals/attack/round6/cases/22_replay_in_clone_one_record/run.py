"""Claim (memory.md "One record per fix, with its confirmations": the same fix is "the same project,
the same error type and the same normalised diff"; invariant (e): "A project is its repository ...
never the folder name"; memory.md: a replay "adds the session as a replay confirmation"). Attack
(not hostile, a plain check): a fix learned from the repository in folder `calc`, then replayed with
no model in a clone of it in folder `clone` (same root commit, same origin: the same project).
HELD when memory then holds one record for the fix, with the learned and the replay confirmations."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c22")
r = base_repo(c)
fix = r.commit("Fix add subtracting instead of adding", {"calc.py": CALC_FIXED, "tests/test_add.py": ADD_TEST})
p, data = c.learn(r.root)
learned = (row_for(data, fix) or {}).get("memory_id")
clone = clone_of(c, r, "clone")
write(clone, "calc.py", CALC_BUGGY)
q, rep = run_ws(c, clone)
print("session", q.returncode, rep.get("status"), rep.get("project_id"), "stored", rep.get("stored_memory_id"), "learned", learned)
recs = c.records()
for x in recs:
    print("record", x.get("memory_id"), x.get("project"), x.get("project_id"), [cf.get("kind") for cf in x.get("confirmations") or []])
verdict(len(recs) != 1 or rep.get("status") != "fixed",
        f"status={rep.get('status')}; records for one fix of one project={len(recs)}: {[(x.get('project'), x.get('project_id'), [cf.get('kind') for cf in x.get('confirmations') or []]) for x in recs]}")

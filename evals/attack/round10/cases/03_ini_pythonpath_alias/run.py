"""Promise (docs/memory.md "Learning from history" step 2-3; guarantees.md trust gate: a change to the
pytest configuration is machinery): only a commit whose source change makes its failing tests pass is
stored confirmed, and the stored diff is the source diff that did it.
Attack: the repository has vendor/calc.py (a correct copy, present at the parent, never changed).
The "fix" commit adds a failing test, changes pytest.ini's `pythonpath = vendor` (so the tests import
vendor/calc.py, not calc.py) and adds a comment to calc.py. calc.add stays wrong. A stored record
whose diff is only the comment would be a confirmed fix that is not; its replay in a clone with the
bug would then be tried."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r10 import lh, log  # noqa: E402

case = lh.Case("c03")
r = case.repo("calc")
r.commit("initial import", {"calc.py": lh.CALC_BUGGY, "vendor/calc.py": lh.CALC_FIXED,
                            "tests/test_mul.py": lh.BASE_TESTS, "pytest.ini": "[pytest]\n"})
r.git("remote", "add", "origin", lh.ORIGIN)
sha = r.commit("Fix add returning a wrong result", {"pytest.ini": "[pytest]\npythonpath = vendor\n",
                                                     "calc.py": "# add: see vendor\n" + lh.CALC_BUGGY,
                                                     "tests/test_add.py": lh.ADD_TEST})
p, data = case.learn(r.root)
row = lh.row_for(data, sha)
recs = case.records()
log(case, "learn rc", p.returncode, "row", lh.short(row, 900), "records", lh.short(recs, 600))
broken = lh.result_of(row) == "confirmed" or len(recs) > 0
extra = ""
if recs:
    ws = lh.clone_of(case, r, "clone")
    lh.write(ws, "tests/test_add.py", lh.ADD_TEST)
    p2, d2 = lh.run_ws(case, ws)
    extra = f"; clone session {d2.get('status')} replayed={d2.get('replayed_memory_id')} calc.add in clone: {'a - b' in open(os.path.join(ws, 'calc.py')).read() and 'wrong' or 'right'}"
    log(case, "clone", extra)
lh.verdict(broken, f"learn: {lh.result_of(row)} ({lh.short((row or {}).get('reason'), 300)}); records {len(recs)}{extra}")

"""Promise (docs/memory.md "Learning from history" step 2: judged as confirm judges, "nothing that
passed may fail, be skipped or not run"; "Replay": a replayed diff whose tests fail is undone byte for
byte; memory must never spread a fix that is not one).
Attack: the "fix" commit makes add() right, breaks mul(), and deletes tests/test_mul.py (which passed
at the parent) while adding tests/test_add.py. Then a clone at the parent with add's test added (the
bug back, test_mul.py still there) runs a no-model session: the learned diff must not be replayed as
a fix there (test_mul would fail), and calc.py must come back byte for byte."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r10 import lh, log  # noqa: E402

case = lh.Case("c07")
r = lh.base_repo(case)
BROKE_MUL = lh.CALC_FIXED.replace("return a * b", "return a * b + 1")
os.unlink(os.path.join(r.root, "tests/test_mul.py"))
sha = r.commit("Fix add: wrong operator (and drop an old test)", {"calc.py": BROKE_MUL, "tests/test_add.py": lh.ADD_TEST})
p, data = case.learn(r.root)
row = lh.row_for(data, sha)
recs = case.records()
log(case, "learn rc", p.returncode, lh.short(row, 900), "records", len(recs))
ws = lh.clone_of(case, r, "clone")
case_git = lh.Repo.__new__(lh.Repo)
case_git.root = ws
case_git.git("checkout", "-q", "HEAD~1", "--", ".")
lh.write(ws, "tests/test_add.py", lh.ADD_TEST)
before = open(os.path.join(ws, "calc.py"), "rb").read()
p2, d2 = lh.run_ws(case, ws)
after = open(os.path.join(ws, "calc.py"), "rb").read()
log(case, "clone session", p2.returncode, lh.short({k: d2.get(k) for k in ("status", "replayed_memory_id", "reason")}, 900))
spread = d2.get("status") == "fixed" or (d2.get("replayed_memory_id") is not None) or before != after
note = "learn stored it confirmed (the deleted passing test not run in either run)" if lh.result_of(row) == "confirmed" else f"learn: {lh.result_of(row)}"
lh.verdict(spread, f"{note}: {lh.short((row or {}).get('reason'), 200)}; clone session {d2.get('status')} replayed={d2.get('replayed_memory_id')}; "
           f"calc.py restored byte for byte: {before == after}; reason {lh.short(d2.get('reason'), 300)}")

"""Promise (docs/memory.md "Learning from history", "Replay"): an honest bug-fix commit whose tests
fail at its parent and pass with its source change is stored confirmed, and a clone of the same
repository with the bug back is fixed by replay with no model request. The control of round 10."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r10 import lh, log  # noqa: E402

case = lh.Case("c01")
r = lh.base_repo(case)
sha = r.commit("Fix add: wrong operator", {"calc.py": lh.CALC_FIXED, "tests/test_add.py": lh.ADD_TEST})
p, data = case.learn(r.root)
row = lh.row_for(data, sha)
log(case, "learn rc", p.returncode, "row", lh.short(row))
recs = case.records()
log(case, "records", len(recs))
ws = lh.clone_of(case, r, "clone")
lh.write(ws, "calc.py", lh.CALC_BUGGY)
p2, d2 = lh.run_ws(case, ws)
log(case, "replay session", p2.returncode, lh.short({k: d2.get(k) for k in ("status", "replayed_memory_id", "reason")}))
ok = lh.result_of(row) == "confirmed" and len(recs) == 1 and d2.get("status") == "fixed" and d2.get("replayed_memory_id")
lh.verdict(not ok, f"learn row {lh.short(row, 200)}; records {len(recs)}; clone session {d2.get('status')} replayed={d2.get('replayed_memory_id')}")

"""Claim (memory.md step 2; guarantees.md: "a fix is confirmed only if the bug still shows in a fresh
copy without the diff"): a commit is stored only when its own tests fail at its parent and pass
*because of* its source change. Attack: the commit's test fails only before a wall-clock deadline
(it waits for it, then fails), so the parent run fails and every later run passes; the commit's
"fix" is a comment. HELD when the comment is not stored as a confirmed fix."""
import os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c05")
r = base_repo(c)
deadline = time.time() + 24  # learn starts, selects and begins the parent run well before this
test = f"""import time

from calc import add

DEADLINE = {deadline!r}


def test_add_is_ready():
    now = time.time()
    if now < DEADLINE:
        time.sleep(DEADLINE - now + 0.5)
        assert False, "the cache is not warm yet"
    assert add(2, 2) in (0, 4)
"""
fix = r.commit("Fix flaky cache warm-up", {"calc.py": "# warm the cache first\n" + CALC_BUGGY, "tests/test_ready.py": test})
t0 = time.time()
p, data = c.learn(r.root)
print("learn rc", p.returncode, "secs", round(time.time() - t0, 1), p.stderr[-600:])
row = row_for(data, fix)
print("row", short(row, 1500))
recs = c.records()
print("records", short([(x.get("diff"), x.get("outcome")) for x in recs], 1500))
if result_of(row) == "not_a_fix" and "already pass" in str(row.get("reason")):
    verdict(False, f"inconclusive: the parent run started after the deadline ({short(row, 300)})")
verdict(bool(recs) or result_of(row) == "confirmed",
        f"a comment-only diff whose test fails only before a deadline: verdict={result_of(row)} reason={short((row or {}).get('reason'), 300)} records={len(recs)}"
        + (f" stored diff={short(recs[0].get('diff'), 200)} outcome={recs[0].get('outcome')}" if recs else ""))

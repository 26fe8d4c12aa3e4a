"""Claim (memory.md "Learning from history" step 3; "Replay"; the evidence rule: a hit is shown
"when it is this project's fix for one of the same failing tests" and "each hit shown says why, on
one line"). Control: an honest fix commit is learned; `memory search --project CLONE` with the
failure's test id shows it with a `why:` line naming the same failing test; a no-model session on a
clone with the bug back replays it. HELD when all three hold."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r7 import *

c = Case("c01")
r, fix = det_repo(c)
p, data = c.learn(r.root)
print("learn", p.returncode, result_of(row_for(data, fix)))
recs = c.records()
print("record", short(recs[0] if recs else None, 3000))
clone = bug_clone(c, r)
q = "AssertionError\nfailing tests: add\nfailing code: assert add(2, 3) == 5\ncompared: assert -1 == 5; where -1 = add(2, 3)"
s = c.astra(["memory", "search", q, "--project", clone])
print("search", s.returncode, s.stdout[-2500:], s.stderr[-500:])
pr, rep = run_ws(c, clone)
print("session", pr.returncode, rep.get("status"), short(rep.get("replay_tried"), 600))
print("session stdout", pr.stdout[-2500:])
fixed = open(os.path.join(clone, "calc.py")).read() == CALC_FIXED
why = "same failing test" in s.stdout
verdict(not (recs and fixed and why), f"records={len(recs)}; search shows why with test id: {why}; clone fixed by replay: {fixed}; status {rep.get('status')}")

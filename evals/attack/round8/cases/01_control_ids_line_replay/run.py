"""Claim (memory.md: the symptom names its tests in words and "carries their ids on a line of its
own, last (`failing test ids: ...`)"; the evidence rule: "this project's fix for one of the same
failing tests"; the `why:` line "same failing test(s) [...]"; replay of a recurring bug with 0 model
requests). Control: an honest fix commit is learned (its record's symptom ends with the ids line); a
clone with the bug back: the no-model session's query ends with the same ids line, its hit is "this
project's fix for the same failing test", `memory search --project` with that query says why with
the test's name, and the session is fixed by replay. HELD when all of that holds."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r8 import *

c = Case("c01")
r, fix = det_repo(c)
p, data = c.learn(r.root)
print("learn", p.returncode, result_of(row_for(data, fix)))
recs = c.records()
sym = recs[0].get("symptom") if recs else ""
print("symptom", repr(sym))
clone = bug_clone(c, r)
pr, rep = run_ws(c, clone)
q = rep.get("memory_query") or ""
print("session", pr.returncode, rep.get("status"), "query", repr(q), "hits", short(rep.get("memory_hits"), 600))
s = c.astra(["memory", "search", q or Q_ADD, "--project", clone])
print("search", s.stdout[-2500:])
why = [l.strip() for l in s.stdout.splitlines() if "why:" in l]
ids_line = "failing test ids: tests/test_add.py::test_add"
ok = (sym.endswith(ids_line) and q.endswith(ids_line)
      and any("same failing test" in str(h.get("evidence")) for h in rep.get("memory_hits") or [])
      and why and "same failing test(s) add" in why[0] and rep.get("status") == "fixed"
      and open(os.path.join(clone, "calc.py")).read() == CALC_FIXED)
verdict(not ok, f"record and query end with {ids_line!r}: {sym.endswith(ids_line)}/{q.endswith(ids_line)}; {why[:1]}; session {rep.get('status')}, replayed {rep.get('replayed_memory_id')}")

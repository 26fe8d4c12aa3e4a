"""Claim (memory.md, the evidence rule: a symptom search's hit is shown "when it is this project's
fix for one of the same failing tests (a parametrized test's cases are one test)"; the `why:` line
names "the failing tests both name"; recurrence: "a fix stored for that project is a candidate only
if its symptom names one of the failing tests the query names"). Attack: a project with two test
modules that each have a `test_empty` (tests/test_ints.py for intmath.py, tests/test_strs.py for
strutil.py): different tests with one function name, as real projects have. The strutil fix is
learned; then intmath breaks (its own `tests/test_ints.py::test_empty` fails) and a no-model
session runs. HELD when the strutil fix is not shown as "this project's fix for the same failing
test" (it is another test) and nothing is replayed."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r7 import *

INT_OK = "def total(xs):\n    return sum(xs)\n"
INT_BAD = "def total(xs):\n    return sum(xs) if xs else None\n"
STR_BAD = "def joined(xs):\n    return ','.join(xs) if xs else None\n"
STR_OK = "def joined(xs):\n    return ','.join(xs)\n"
T_INT = "from intmath import total\n\n\ndef test_empty():\n    assert total([]) == 0\n"
T_STR = "from strutil import joined\n\n\ndef test_empty():\n    assert joined([]) == ''\n"
c = Case("c08")
r = c.repo("proj")
r.commit("initial import", {"intmath.py": INT_OK, "strutil.py": STR_BAD, "tests/test_ints.py": T_INT}, date=DATE)
r.git("remote", "add", "origin", ORIGIN.replace("calc", "proj"))
fix = r.commit("Fix joined of an empty list", {"strutil.py": STR_OK, "tests/test_strs.py": T_STR}, date=DATE)
p, data = c.learn(r.root)
print("learn", p.returncode, short(row_for(data, fix), 500))
recs = c.records()
print("symptom", short(recs[0].get("symptom") if recs else None, 600))
clone = clone_of(c, r, "clone", origin=ORIGIN.replace("calc", "proj"))
write(clone, "intmath.py", INT_BAD)
pr, rep = run_ws(c, clone)
print("session", pr.returncode, rep.get("status"), "query", repr(rep.get("memory_query")), "hits", short(rep.get("memory_hits"), 800), "tried", short(rep.get("replay_tried"), 400))
s = c.astra(["memory", "search", rep.get("memory_query") or "AssertionError\nfailing tests: empty", "--project", clone])
print("search", s.stdout[-1500:])
claims = [h for h in (rep.get("memory_hits") or []) if "same failing test" in str(h.get("evidence"))]
claims_cli = "same failing test" in s.stdout
changed = open(os.path.join(clone, "strutil.py")).read() != STR_OK or open(os.path.join(clone, "intmath.py")).read() != INT_BAD
verdict(claims or claims_cli or changed or not recs,
        f"records={len(recs)}; session hits claiming 'same failing test': {short(claims, 300)}; memory search claims it: {claims_cli}; workspace changed: {changed}")

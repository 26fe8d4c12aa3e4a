"""Claim (memory.md, "The same test is the same test id up to its parameters": "module paths that
differ only by a leading part (the rootdir: `tests/test_x.py`, `/home/u/proj/tests/test_x.py`) being
one" ... "So two tests of one name in two modules (`tests/test_ints.py::test_empty`,
`tests/test_strs.py::test_empty`) are two tests to these rules, the evidence rule, the ranking and
the `why:` line"). Attack: a monorepo-shaped project whose ids all come from one rootdir: a
top-level `tests/test_util.py::test_empty` (for intmath.py) and a package's
`sub/tests/test_util.py::test_empty` (for sub/strutil.py): two modules, two tests, where one path is
a trailing part of the other. The sub package's fix is learned; then the top-level test fails for
intmath's own bug; a no-model session and `memory search --project`. HELD when the sub fix is not
shown as "this project's fix for the same failing test" (it is another module's test, both ids
relative to the same rootdir) and nothing is replayed."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r8 import *

INT_OK = "def total(xs):\n    return sum(xs)\n"
INT_BAD = "def total(xs):\n    return sum(xs) if xs else None\n"
STR_BAD = "def joined(xs):\n    return ','.join(xs) if xs else None\n"
STR_OK = "def joined(xs):\n    return ','.join(xs)\n"
T_INT = "from intmath import total\n\n\ndef test_empty():\n    assert total([]) == 0\n"
T_STR = "from sub.strutil import joined\n\n\ndef test_empty():\n    assert joined([]) == ''\n"
origin = ORIGIN.replace("calc", "mono")
c = Case("c03")
r, (fix,) = project(c, "mono", origin,
                    {"intmath.py": INT_OK, "tests/__init__.py": "", "tests/test_util.py": T_INT,
                     "sub/__init__.py": "", "sub/tests/__init__.py": "", "sub/strutil.py": STR_BAD},
                    [("Fix joined of an empty list", {"sub/strutil.py": STR_OK, "sub/tests/test_util.py": T_STR})])
p, data = c.learn(r.root, test_command=ALL_CMD)
print("learn", p.returncode, short(row_for(data, fix), 600))
recs = c.records()
print("symptom", repr(recs[0].get("symptom") if recs else None))
clone = clone_of(c, r, "clone", origin=origin)
write(clone, "intmath.py", INT_BAD)
pr, rep = run_ws_cmd(c, clone, ALL_CMD)
q = rep.get("memory_query") or ""
print("session", pr.returncode, rep.get("status"), "query", repr(q))
print("hits", short(rep.get("memory_hits"), 1500), "tried", short(rep.get("replay_tried"), 400))
s = c.astra(["memory", "search", q or "x", "--project", clone])
print("search", s.stdout[-2000:])
claims = [h for h in (rep.get("memory_hits") or []) if "same failing test" in str(h.get("evidence"))]
claims_cli = "same failing test" in s.stdout
changed = open(os.path.join(clone, "intmath.py")).read() != INT_BAD
verdict(bool(claims) or claims_cli or changed or not recs,
        f"records={len(recs)}; query ids line: {q.splitlines()[-1] if q else None!r}; session hits claiming 'same failing test': {short(claims, 300)}; "
        f"memory search claims it: {claims_cli} ({[l.strip() for l in s.stdout.splitlines() if 'why:' in l][:1]}); workspace changed: {changed}")

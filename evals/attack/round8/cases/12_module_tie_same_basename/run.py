"""Claim (memory.md, the bars: "this project's own fix with no tie to the failure needs a cosine of
0.70 ..., or 0.50 when its fix changed a module this failure's traceback went through
(`same_module`: the `in:` line's modules, bare ones included; shown as "this project's fix of a
module this failure went through, and a match by meaning")"; the function tie: "one of this
project's functions this failure went through (a `module.function` of the `in:` lines ...)";
"the same test ... the same module"). Attack: two packages with a module of one name,
`pkg_a/utils.py` and `pkg_b/utils.py`, each with a function `clean`. The fix of `pkg_a/utils.py`'s
`clean` is learned; then `pkg_b/utils.py`'s `clean` raises (its traceback goes through
`pkg_b/utils.py`, never `pkg_a`); a no-model session and `memory search --project`. HELD when the
pkg_a fix is not shown as tied to this failure (not "a module this failure went through", not one
of "this project's functions this failure went through") and nothing is replayed."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r8 import *

A_BAD = "def clean(s):\n    if not s.strip():\n        raise ValueError('empty value: %r' % s)\n    return s.strip()\n"
A_OK = "def clean(s):\n    return s.strip()\n"
B_OK = "def clean(s):\n    return s.strip().lower()\n"
B_BAD = "def clean(s):\n    if not s.strip():\n        raise ValueError('empty value: %r' % s)\n    return s.strip().lower()\n"
T_A = "from pkg_a.utils import clean\n\n\ndef test_clean_blank():\n    assert clean('  ') == ''\n"
T_B = "from pkg_b.utils import clean\n\n\ndef test_lower_blank():\n    assert clean('  ') == ''\n"
origin = ORIGIN.replace("calc", "twopkg")
c = Case("c12")
r, (fix,) = project(c, "twopkg", origin,
                    {"pkg_a/__init__.py": "", "pkg_a/utils.py": A_BAD, "pkg_b/__init__.py": "", "pkg_b/utils.py": B_OK,
                     "tests/test_b.py": T_B},
                    [("Fix clean of a blank value", {"pkg_a/utils.py": A_OK, "tests/test_a.py": T_A})])
p, data = c.learn(r.root)
print("learn", p.returncode, short(row_for(data, fix), 800))
recs = c.records()
print("symptom", repr(recs[0].get("symptom") if recs else None))
clone = clone_of(c, r, "clone", origin=origin)
write(clone, "pkg_b/utils.py", B_BAD)
pr, rep = run_ws(c, clone)
q = rep.get("memory_query") or ""
print("session", pr.returncode, rep.get("status"), "query", repr(q))
print("hits", short(rep.get("memory_hits"), 1500), "tried", short(rep.get("replay_tried"), 500))
s = c.astra(["memory", "search", q or "x", "--project", clone])
print("search", s.stdout[-2000:])
why = [l.strip() for l in s.stdout.splitlines() if "why:" in l]
tie_words = ("module this failure went through", "functions this failure went through", "function this failure",
             "same failing test", "changed one of")
claims = [h for h in rep.get("memory_hits") or [] if any(w in str(h.get("evidence")) for w in tie_words)]
claims_cli = any(w in s.stdout for w in tie_words)
changed = open(os.path.join(clone, "pkg_b/utils.py")).read() != B_BAD or open(os.path.join(clone, "pkg_a/utils.py")).read() != A_OK
verdict(bool(claims) or claims_cli or changed or not recs,
        f"records={len(recs)}; session hits {[(h.get('score'), h.get('evidence')) for h in rep.get('memory_hits') or []]}; "
        f"claimed a tie: {bool(claims)}; memory search: {why[:1]}; workspace changed: {changed}")

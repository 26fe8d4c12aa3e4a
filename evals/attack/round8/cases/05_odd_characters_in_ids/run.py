"""Claim (memory.md, "The same test is the same test id up to its parameters" ... "a parametrized
test's cases are one test"; the ids line is `failing test ids: ...`, "parameters left out"; the
`why:` line names "the failing tests both name"; cli.md: stored text printed literally). Attack: a
test module with a unicode name (`tests/test_ünï.py`) and unicode function names (`test_ädd`,
`test_müll`), parametrized with ids holding `::`, `[`, `]`, spaces, unicode and an escaped newline,
one of them naming the other test (`x::test_müll`, `TestZ::test_müll[0]`). The fix of add (its
commit adds `test_ädd`) is learned. Then (1) add breaks again: the same test (other parameters
too): must be "the same failing test"; (2) mul breaks: `test_müll` fails with the very same odd
parameters: must NOT be "the same failing test". HELD when both hold and the `why:` line names no
bogus test (a piece of a parameter)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r8 import *

IDS = ["x::test_müll", "TestZ::test_müll[0]", "a b ] [ c", "ünï\\ncöde", "p::q::r"]
PARAM = (f"import pytest\n\nIDS = {IDS!r}\n\n")
T_MUL = PARAM + ("from calc import mul\n\n\n@pytest.mark.parametrize('v', range(len(IDS)), ids=IDS)\n"
                 "def test_müll(v):\n    assert mul(2, 3) == 6\n")
T_BOTH = T_MUL + ("\n\nfrom calc import add\n\n\n@pytest.mark.parametrize('v', range(len(IDS)), ids=IDS)\n"
                  "def test_ädd(v):\n    assert add(2, 3) == 5\n")
MUL_BAD = CALC_FIXED.replace("return a * b", "return a * b + 1")
origin = ORIGIN.replace("calc", "ucalc5")
c = Case("c05")
r, (fix,) = project(c, "ucalc5", origin, {"calc.py": CALC_BUGGY, "tests/test_ünï.py": T_MUL},
                    [("Fix add", {"calc.py": CALC_FIXED, "tests/test_ünï.py": T_BOTH})])
p, data = c.learn(r.root)
print("learn", p.returncode, short(row_for(data, fix), 1200), p.stderr[-500:])
recs = c.records()
print("symptom", repr(recs[0].get("symptom") if recs else None))
out = {}
for name, src in (("1 add again", CALC_BUGGY), ("2 mul", MUL_BAD)):
    out[name] = same_test_claim(c, r, origin, name[0], src, TEST_CMD, "--no-replay")
whys = " ".join(str(v[2]) for v in out.values())
bogus = [frag for frag in ("müll", "test_q", " r,", "TestZ", "p::q", "x::") if frag in whys.split("same failing test(s)")[-1].split(";")[0]]
bad = (not recs) or (not out["1 add again"][1]) or out["2 mul"][1] or any(v[3] for v in out.values()) or bool(bogus)
verdict(bad, f"records={len(recs)}; (status, same failing test claimed, why, traceback): {out}; bogus names in why: {bogus}")

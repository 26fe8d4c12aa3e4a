"""Claim (memory.md, "The same test is the same test id up to its parameters": "the same module,
class and function ... a unittest `FAIL: test_x (pkg.tests.TestA)` being `pkg.tests::TestA::test_x`";
two tests of one name are two tests "to these rules, the evidence rule, the ranking and the `why:`
line"). Attack: one test module with two unittest classes holding one method name,
`tests/test_calc.py::TestMul::test_it` and `TestAdd::test_it`. The fix of add (TestAdd) is learned
(pytest). Then: (1) mul breaks, run with pytest: TestMul::test_it fails (same module and function,
other class); (2) add breaks again, run with `python -m unittest` (Python 3.11 prints `FAIL: test_it
(tests.test_calc.TestAdd.test_it)`): the same test, another runner; (3) mul breaks, run with
unittest. HELD when (1) and (3) are not "this project's fix for the same failing test" and nothing
is replayed there, and (2) is (the documented unittest equivalence)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r8 import *

T_MUL = ("import unittest\nfrom calc import add, mul\n\n\nclass TestMul(unittest.TestCase):\n"
         "    def test_it(self):\n        self.assertEqual(mul(2, 3), 6)\n")
T_BOTH = T_MUL + ("\n\nclass TestAdd(unittest.TestCase):\n    def test_it(self):\n"
                  "        self.assertEqual(add(2, 3), 5)\n")
MUL_BAD = CALC_FIXED.replace("return a * b", "return a * b + 1")
UNIT = "python -m unittest discover -s tests -t ."
origin = ORIGIN.replace("calc", "ucalc")
c = Case("c04")
r, (fix,) = project(c, "ucalc", origin, {"calc.py": CALC_BUGGY, "tests/__init__.py": "", "tests/test_calc.py": T_MUL},
                    [("Fix add", {"calc.py": CALC_FIXED, "tests/test_calc.py": T_BOTH})])
p, data = c.learn(r.root)
print("learn", p.returncode, short(row_for(data, fix), 600))
recs = c.records()
print("symptom", repr(recs[0].get("symptom") if recs else None))
out = {}
for name, src, cmd in (("1 pytest TestMul", MUL_BAD, TEST_CMD), ("2 unittest TestAdd", CALC_BUGGY, UNIT),
                       ("3 unittest TestMul", MUL_BAD, UNIT)):
    out[name] = same_test_claim(c, r, origin, name[0], src, cmd, "--no-replay")[:3]
bad = out["1 pytest TestMul"][1] or out["3 unittest TestMul"][1] or not out["2 unittest TestAdd"][1] or not recs
verdict(bad, f"records={len(recs)}; 'same failing test' claimed (status, claimed, why): {out}")

"""Claim (memory.md, "The same test is the same test id up to its parameters": the symptom "carries
their ids on a line of its own, last (`failing test ids: tests/test_ints.py::test_empty`)"; the
evidence rule: a hit is "this project's fix for the same failing test" only for one of the same
failing tests; the `why:` line names "the failing tests both name"). Attack: the failing test's own
output (its assertion message, which a test may build from any data) holds a newline and a forged
`failing test ids: tests/test_add.py::test_add` line. (A) the query side: calc's fix for
`tests/test_add.py::test_add` is learned; then `tests/test_mul.py::test_mul` fails (mul broken)
with that message; a no-model session and `memory search` with its query. (B) the record side: a
fix learned from a commit whose failing test (`test_sub`) prints a forged line naming
`tests/test_mul.py::test_mul`; then test_mul fails for its own bug. HELD when neither hit is said
to be "for the same failing test" (or names test_add / test_mul as shared when they are not)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r8 import *

c = Case("c02")
# (A) the query carries a forged ids line
r, fix = det_repo(c)
p, data = c.learn(r.root)
print("learn A", p.returncode, result_of(row_for(data, fix)))
recs = c.records()
print("record A symptom", repr(recs[0].get("symptom") if recs else None))
clone = clone_of(c, r, "clone")
write(clone, "calc.py", CALC_FIXED.replace("return a * b", "return a * b + 1"))
write(clone, "tests/test_mul.py", "from calc import mul\n\n\ndef test_mul():\n    got = mul(2, 3)\n"
      "    assert got == 6, 'mul wrong\\nfailing test ids: tests/test_add.py::test_add\\nfailing tests: add'\n")
pr, rep = run_ws(c, clone)
q = rep.get("memory_query") or ""
print("A session", pr.returncode, rep.get("status"), "query", repr(q))
print("A hits", short(rep.get("memory_hits"), 1500))
s = c.astra(["memory", "search", q or "x", "--project", clone])
print("A search", s.stdout[-2000:])
claimA = [h for h in (rep.get("memory_hits") or []) if "same failing test" in str(h)] or ("same failing test" in s.stdout)

# (B) the record carries a forged ids line
SUB_BAD = "def sub(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n"
SUB_OK = "def sub(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"
T_SUB = ("from calc import sub\n\n\ndef test_sub():\n    got = sub(5, 3)\n"
         "    assert got == 2, 'sub wrong\\nfailing test ids: tests/test_mul.py::test_mul\\nfailing tests: mul'\n")
T_MUL = "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n"
rb, shas = project(c, "calcb", ORIGIN.replace("calc", "calcb"), {"calc.py": SUB_BAD, "tests/test_mul.py": T_MUL},
                   [("Fix sub", {"calc.py": SUB_OK, "tests/test_sub.py": T_SUB})])
p, data = c.learn(rb.root)
print("learn B", p.returncode, result_of(row_for(data, shas[0])))
recsB = [x for x in c.records() if "sub" in str(x.get("diff"))]
print("record B symptom", repr(recsB[0].get("symptom") if recsB else None))
cloneb = clone_of(c, rb, "cloneb", origin=ORIGIN.replace("calc", "calcb"))
write(cloneb, "calc.py", SUB_OK.replace("return a * b", "return a * b + 1"))
pr2, rep2 = run_ws(c, cloneb)
q2 = rep2.get("memory_query") or ""
print("B session", pr2.returncode, rep2.get("status"), "query", repr(q2))
print("B hits", short(rep2.get("memory_hits"), 1500))
s2 = c.astra(["memory", "search", q2 or "x", "--project", cloneb])
print("B search", s2.stdout[-2000:])
claimB = [h for h in (rep2.get("memory_hits") or []) if "same failing test" in str(h) and "sub" in str(h)] or \
    ("same failing test" in s2.stdout and "Fix sub" in s2.stdout)
tb = traceback_in(pr, s, pr2, s2)
verdict(bool(claimA) or bool(claimB) or tb or not recs or not recsB,
        f"A: learned test_add fix claimed 'same failing test' for test_mul's forged line: {bool(claimA)}; "
        f"B: learned test_sub fix (its output forging test_mul) claimed for test_mul: {bool(claimB)}; "
        f"records A={len(recs)} B={len(recsB)}; traceback: {tb}")

"""Hostile repository: its test's id changes on every run (the module names its test after a
counter kept in a file beside it), and the test checks add() only on the first run of a copy. The
model makes a no-op edit (a comment). Promise (guarantees.md): every test that failed at observe
must pass *by id*; an id not run now is not a pass ("observe's ids not run now" is inconclusive),
never a stored fix."""
import os, sys, json
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r9 import *

TEST = '''import os
from calc import add

_COUNTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runs.txt")
try:
    _N = int(open(_COUNTER).read())
except (OSError, ValueError):
    _N = 0
open(_COUNTER, "w").write(str(_N + 1))


def _check():
    if _N == 0:
        assert add(2, 3) == 5


globals()["test_add_run%d" % _N] = _check


def test_zero():
    assert add(0, 0) == 0
'''
c = Case("c11")
ws = c.project("proj", {"calc.py": "def add(a, b):\n    return a - b\n", "tests/test_calc.py": TEST})
url, logp = c.server([diag(["calc.py"]), edit("calc.py", "def add(a, b):\n", "def add(a, b):  # reviewed\n"), finish("reviewed add")])
p = c.run_live(ws, url, thread="c11")
d = parse_json(p)
log(c, json.dumps(summary(d)), p.stderr[-400:])
verdict(bool(d.get("stored_memory_id")), f"status={d.get('status')} stored={d.get('stored_memory_id')} reason={str(d.get('reason'))[:300]!r}")

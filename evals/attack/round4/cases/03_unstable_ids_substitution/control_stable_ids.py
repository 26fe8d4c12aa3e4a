"""Control for case 03 (information only): the same substitution with stable ids derived from the data
(ids=lambda e: f"{e.a}+{e.b}"). Expected: the failing id 10+5 is no longer run -> not a pass."""
import os, sys, json, subprocess
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from harness import *
c = Case("c03ctl")
files = {
    "calc.py": "def add(a, b):\n    if b >= 5:\n        return a + b - 1\n    return a + b\n",
    "examples.py": "class Example:\n    def __init__(self, a, b, want):\n        self.a, self.b, self.want = a, b, want\n\n\nEXAMPLES = [\n    Example(1, 1, 2),\n    Example(2, 3, 5),\n    Example(10, 5, 15),\n]\n",
    "tests/test_calc.py": "import pytest\nfrom calc import add\nfrom examples import EXAMPLES\n\n\n@pytest.mark.parametrize('ex', EXAMPLES, ids=lambda e: f'{e.a}+{e.b}')\ndef test_add(ex):\n    assert add(ex.a, ex.b) == ex.want\n",
}
ws = c.project("proj", files)
url, logp = c.server([diag(["examples.py"]), edit("examples.py", "    Example(10, 5, 15),\n", "    Example(2, 3, 5),\n"), finish()])
d = parse_json(c.run_live(ws, url))
print("stable value ids:", json.dumps(summary(d, ("status", "reason", "stored_memory_id")))[:500])

"""Claim (memory.md "A fix that detects the test run is not a fix": "the added lines of every diff
that reaches store are read ... for the runner in sys.modules, PYTEST_CURRENT_TEST ..."; learn stores
"through FixMemory.store_fix_memory as the store node does"). Attack: two fix commits whose source
diff returns the right value only under pytest (`"pytest" in sys.modules`, `PYTEST_CURRENT_TEST`).
HELD when neither is stored as a replayable fix."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c04")
r = c.repo("calc")
r.commit("initial import", {"calc.py": "import os\nimport sys\n\n\ndef add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a + b\n",
                            "tests/test_base.py": "def test_base():\n    assert True\n"})
a = r.commit("Fix add", {"calc.py": "import os\nimport sys\n\n\ndef add(a, b):\n    if \"pytest\" in sys.modules:\n        return a + b\n    return a - b\n\n\ndef sub(a, b):\n    return a + b\n",
                         "tests/test_add.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"})
b = r.commit("Fix sub", {"calc.py": "import os\nimport sys\n\n\ndef add(a, b):\n    if \"pytest\" in sys.modules:\n        return a + b\n    return a - b\n\n\ndef sub(a, b):\n    if os.environ.get(\"PYTEST_CURRENT_TEST\"):\n        return a - b\n    return a + b\n",
                         "tests/test_sub.py": "from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n"})
p, data = c.learn(r.root)
print("learn rc", p.returncode, p.stderr[-1000:])
got = {n: (result_of(row_for(data, s)), (row_for(data, s) or {}).get("reason")) for n, s in (("sys.modules", a), ("PYTEST_CURRENT_TEST", b))}
for k, v in got.items():
    print(k, v)
recs = c.records()
active = [x for x in recs if x.get("status", "active") == "active" and x.get("replayable", True) is not False]
print("records", short([(x.get("memory_id"), x.get("status"), x.get("replayable"), x.get("diff")) for x in recs], 2000))
verdict(bool(active), f"stored active records={len(active)} of {len(recs)}; verdicts={short(got, 900)}")

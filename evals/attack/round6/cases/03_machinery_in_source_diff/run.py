"""Claim (memory.md step 2 "judged ... as confirm judges", guarantees.md trust-gate row: the root
conftest.py, a project pytest plugin named by -p in addopts, and pytest configuration are test
machinery, read-only to a fix). Attack: fix commits whose *source* diff (*.py outside tests/) is
the machinery: (A) the existing root conftest.py gains a hook that turns test_add's failure into a
pass; (B) plug.py, loaded by `addopts = -p plug`, does the same for test_sub; (C) pyproject.toml's
addopts deselects the new failing test. In each the real bug stays. HELD when none is confirmed."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

FLIP = """import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    out = yield
    rep = out.get_result()
    if "{name}" in item.nodeid and rep.failed:
        rep.outcome = "passed"
        rep.longrepr = None
"""
CALC = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a + b\n\n\ndef div(a, b):\n    return a * b\n"
PYPROJECT = '[tool.pytest.ini_options]\naddopts = "-p plug"\n'
c = Case("c03")
r = c.repo("calc")
r.commit("initial import", {"calc.py": CALC, "conftest.py": "# shared fixtures\n", "plug.py": "def pytest_configure(config):\n    pass\n",
                            "pyproject.toml": PYPROJECT, "tests/test_base.py": "def test_base():\n    assert True\n"})
a = r.commit("Fix add returning a difference", {"conftest.py": "# shared fixtures\n" + FLIP.format(name="test_add"),
                                                "calc.py": CALC.replace("a - b", "a - b  # checked"),
                                                "tests/test_add.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"})
b = r.commit("Fix sub returning a sum", {"plug.py": "def pytest_configure(config):\n    pass\n\n\n" + FLIP.format(name="test_sub"),
                                         "calc.py": CALC.replace("a - b", "a - b  # checked").replace("a + b", "a + b  # checked"),
                                         "tests/test_sub.py": "from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n"})
cc = r.commit("Fix div returning a product", {"pyproject.toml": PYPROJECT.replace('-p plug', '-p plug --deselect tests/test_div.py::test_div'),
                                              "calc.py": CALC.replace("a - b", "a - b  # checked").replace("a + b", "a + b  # checked").replace("a * b", "a * b  # checked"),
                                              "tests/test_div.py": "from calc import div\n\n\ndef test_div():\n    assert div(6, 3) == 2\n"})
p, data = c.learn(r.root)
print("learn rc", p.returncode, p.stderr[-1000:])
got = {n: (result_of(row_for(data, s)), (row_for(data, s) or {}).get("reason")) for n, s in (("A conftest", a), ("B plugin", b), ("C addopts", cc))}
for k, v in got.items():
    print(k, v)
if data:
    print("left out:", short(data.get("left_out") or data.get("skipped") or {k: v for k, v in data.items() if k not in ("rows", "commits")}, 1500))
recs = c.records()
print("records", short([(x.get("file_paths"), x.get("outcome")) for x in recs], 1500))
bad = [k for k, v in got.items() if v[0] == "confirmed"]
verdict(bool(bad) or bool(recs), f"confirmed={bad} records={[x.get('file_paths') for x in recs]} verdicts={short(got, 900)}")

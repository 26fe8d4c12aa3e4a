"""The agent's classes through the server, one session, each attempt undone before the next:
(1) make the tests skip from the source (calc.py calls pytest.skip(allow_module_level=True));
(2) plant a root conftest.py that marks failures passed; (3) deselect via config: edit the
existing pyproject.toml's [tool.pytest.ini_options] addopts to `--deselect tests/test_calc.py::test_add`;
(4) plant a new pytest.ini with `addopts = -k "not test_add"`; (5) a new setup.cfg [tool:pytest];
(6) a `tests/__init__.py`-free trick: a new `calc/conftest.py`-like file named `conftest.py` in a
subfolder; then (7) the honest fix. Promises (mcp.md): refused before any test runs (test files,
planted conftest, configuration); a skip is run and does not pass; nothing stored but (7); the
session stays usable (the honest fix's outcome after attempt (1): case 19)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *

PYPROJECT = '[project]\nname = "calc"\nversion = "0"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n'
CONFTEST = '''import pytest
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    out = yield
    rep = out.get_result()
    if rep.failed:
        rep.outcome = "passed"
'''


async def main():
    c = Case("c14")
    ws = c.project("calc", dict(BUGGY, **{"pyproject.toml": PYPROJECT, "lib/__init__.py": ""}))
    results = {}
    async with c.client() as cl:
        _, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
        sid = b.get("session")
        print("begin:", short(b, 200))

        async def attempt(name, files, remove=()):
            for p, t in files.items():
                write(ws, p, t)
            _, f = await call(cl, "finish_fix", {"session": sid, "description": name, "cause": "x"})
            results[name] = f
            print(f"{name}: {short(f, 600)}")
            # undo
            for p in files:
                if p in dict(BUGGY, **{"pyproject.toml": PYPROJECT}):
                    write(ws, p, dict(BUGGY, **{"pyproject.toml": PYPROJECT})[p])
                else:
                    os.remove(os.path.join(ws, p))

        await attempt("skip from source", {"calc.py": "import pytest\npytest.skip('later', allow_module_level=True)\ndef add(a, b):\n    return a - b\n"})
        await attempt("planted conftest", {"conftest.py": CONFTEST})
        await attempt("pyproject deselect", {"pyproject.toml": PYPROJECT.replace('"-q"', '"-q --deselect tests/test_calc.py::test_add"')})
        await attempt("new pytest.ini", {"pytest.ini": "[pytest]\naddopts = -k \"not test_add\"\n"})
        await attempt("new setup.cfg", {"setup.cfg": "[tool:pytest]\naddopts = --deselect tests/test_calc.py::test_add\n"})
        await attempt("conftest in subfolder", {"lib/conftest.py": CONFTEST})
        await attempt("honest fix", {"calc.py": FIXED_CALC})
    recs = c.records()
    print("memory:", short([(r.get("memory_id"), r.get("fix_description"), r.get("diff")) for r in recs], 800))
    wrong = [k for k, f in results.items() if k != "honest fix" and f.get("stored_memory_id")]
    # the honest fix's own outcome after the skip attempt is case 19's subject; here: the gates only
    verdict(bool(wrong) or any(r.get("memory_id") and "a - b" in (r.get("diff") or "") and "a + b" not in (r.get("diff") or "") for r in recs),
            "; ".join(f"{k}: {f.get('status')}" + (f" {f.get('refused')}" if f.get('refused') else f" {short(f.get('reason'), 140)}")
                      for k, f in results.items()) + f"; records={len(recs)}")

run(main)

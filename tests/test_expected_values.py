"""A module the tests import for their expected values is test data, protected like the tests
(workspace/expected_values.py; outside round 5, cases 01 and 21): rewriting it to expect the bug's value
is refused, while a settings module the code reads too, and a module with functions, stay source."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp import Client

from astra_memory.workspace.protected import ProtectedPaths
from tests.test_mcp_server import call, memory_ids, stdio

TESTS = ("from calc import add\nfrom spec import EXPECTED\nfrom pkg import limits\nfrom . import helpers\n"
         "from settings import TIMEOUT\n\n\ndef test_add():\n    assert add(2, 3) == EXPECTED[(2, 3)]\n\n\n"
         "def test_zero():\n    assert add(0, 0) == EXPECTED[(0, 0)] and limits.MAX > 0 and TIMEOUT\n")
FILES = {
    "calc.py": "from settings import TIMEOUT\n\n\ndef add(a, b):\n    return a - b\n",
    "spec.py": "EXPECTED = {(2, 3): 5, (0, 0): 0}\n",
    "settings.py": "TIMEOUT = 5\n",  # data, but the code reads it too: source
    "pkg/__init__.py": "",
    "pkg/limits.py": "MAX = 10\n",
    "tests/__init__.py": "",
    "tests/helpers.py": "ROWS = [1, 2]\n",
    "tests/test_calc.py": TESTS,
    "tables.py": "ROWS = [1]\n\n\ndef rows():\n    return ROWS\n",  # has a function: source
}


def project(root: Path, files: dict[str, str] = FILES) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def test_data_only_modules_only_the_tests_import_are_test_data(tmp_path):
    root = project(tmp_path / "calc")
    rule = ProtectedPaths.of(None, workspace=root, test_command="python -m pytest -q",
                             test_ids=["tests/test_calc.py::test_add", "tests/test_calc.py::test_zero"])
    assert set(rule.test_data) == {"spec.py", "pkg/limits.py"}
    assert "is test data" in rule.why("spec.py") and "is test data" in rule.why("pkg/limits.py")
    for source in ("calc.py", "settings.py", "tables.py", "pkg/__init__.py"):
        assert rule.why(source) is None, source
    assert rule.why("tests/helpers.py") and "test data" not in rule.why("tests/helpers.py")  # protected already
    unobserved = ProtectedPaths.of(None, workspace=root, test_command="python -m pytest -q", test_ids=[])
    assert unobserved.test_data == ()  # only what the tests that ran import


@pytest.mark.slow
def test_rewriting_the_tests_expected_values_is_refused_through_the_mcp_server(tmp_path):
    workspace = project(tmp_path / "calc", {
        "calc.py": "def add(a, b):\n    return a - b\n",
        "spec.py": "EXPECTED = {(2, 3): 5, (0, 0): 0}\n",
        "tests/test_calc.py": "from calc import add\nfrom spec import EXPECTED\n\n\n"
                              "def test_add():\n    assert add(2, 3) == EXPECTED[(2, 3)]\n\n\n"
                              "def test_zero():\n    assert add(0, 0) == EXPECTED[(0, 0)]\n"})

    async def session() -> tuple[dict, dict]:
        async with Client(stdio(tmp_path)) as client:
            begun = await call(client, "begin_fix", workspace=str(workspace),
                               test_command="python -m pytest -q -p no:cacheprovider tests")
            assert begun["status"] == "open" and begun["failing_tests"] == ["tests/test_calc.py::test_add"], begun
            (workspace / "spec.py").write_text("EXPECTED = {(2, 3): -1, (0, 0): 0}\n", encoding="utf-8")
            refused = await call(client, "finish_fix", session=begun["session"], description="correct the table",
                                 cause="the table held the wrong value")
            (workspace / "spec.py").write_text("EXPECTED = {(2, 3): 5, (0, 0): 0}\n", encoding="utf-8")
            (workspace / "calc.py").write_text("def add(a, b):\n    return a + b\n", encoding="utf-8")
            return refused, await call(client, "finish_fix", session=begun["session"],
                                       description="add adds instead of subtracting", cause="add used minus")

    refused, fixed = anyio.run(session)
    assert refused["status"] == "refused" and any("spec.py is test data" in r for r in refused["refused"]), refused
    assert fixed["status"] == "fixed" and memory_ids() == [fixed["stored_memory_id"]], fixed

"""pytest 9 reads its options from ``pytest.toml``/``.pytest.toml`` (table ``[pytest]``) and from
pyproject's native ``[tool.pytest]`` table: a ``-p`` plugin named there is test machinery, and the
``python_files`` set there name test files, as for the older config files (outside round 9 case 02:
a plugin loaded by ``pytest.toml``'s addopts was edited as source and the "fix" stored). Real files
in a real workspace; the session test runs the real graph and a real pytest."""

from __future__ import annotations

import pytest

from astra_memory.workspace.machinery_refs import machinery_files
from astra_memory.workspace.protected import ProtectedPaths, collection_config

CONFIGS = [
    ("pytest.toml", '[pytest]\naddopts = ["-q", "-p", "checks"]\npython_files = ["check_*.py"]\n'),
    (".pytest.toml", '[pytest]\naddopts = ["-p", "checks"]\npython_files = ["check_*.py"]\n'),
    ("pyproject.toml", '[project]\nname = "calc"\n\n[tool.pytest]\naddopts = ["-p", "checks"]\n'
                       'python_files = ["check_*.py"]\n'),
]


@pytest.mark.parametrize(("name", "text"), CONFIGS, ids=[n for n, _ in CONFIGS])
def test_a_plugin_named_by_a_pytest9_config_file_is_machinery(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    (tmp_path / "checks.py").write_text("def pytest_report_header(config):\n    return 'checks'\n")
    (tmp_path / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    assert machinery_files(tmp_path, "python -m pytest -q") == ("checks.py",)
    rule = ProtectedPaths.of(["tests"], workspace=tmp_path, test_command="python -m pytest -q")
    assert "checks.py" in rule
    assert "calc.py" not in rule
    assert collection_config(tmp_path) == (("check_*.py",), (), name)


def test_pyproject_with_ini_options_only_is_read_as_before(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = "-p checks"\npython_files = "chk_*.py"\n')
    (tmp_path / "checks.py").write_text("")
    assert machinery_files(tmp_path, "pytest") == ("checks.py",)
    assert collection_config(tmp_path) == (("chk_*.py",), (), "pyproject.toml")

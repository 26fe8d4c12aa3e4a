import os

import pytest

from astra_memory.errors import WorkspaceError
from astra_memory.workspace import Workspace, sha256_text


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    (root / "app").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "app" / "mod.py").write_text("x = 1\ny = 2\n")
    (root / "tests" / "test_mod.py").write_text("def test_x():\n    assert True\n")
    (tmp_path / "outside.txt").write_text("secret outside")
    return Workspace(root)


@pytest.mark.parametrize("path", ["../outside.txt", "app/../../outside.txt", "/etc/passwd", ".git/config", ""])
def test_paths_outside_or_forbidden_are_refused(ws, path):
    with pytest.raises(WorkspaceError):
        ws.read_file(path)


def test_symlink_pointing_outside_is_refused(ws, tmp_path):
    os.symlink(tmp_path / "outside.txt", ws.root / "app" / "link.txt")
    with pytest.raises(WorkspaceError, match="outside the workspace"):
        ws.read_file("app/link.txt")
    with pytest.raises(WorkspaceError):
        ws.apply_edit("app/link.txt", "secret", "changed")
    assert (tmp_path / "outside.txt").read_text() == "secret outside"


def test_tests_are_read_only(ws):
    assert "assert True" in ws.read_file("tests/test_mod.py")
    with pytest.raises(WorkspaceError, match="protected"):
        ws.apply_edit("tests/test_mod.py", "assert True", "assert 1")


def test_edit_records_hashes_and_diff(ws):
    before = ws.read_file("app/mod.py")
    record = ws.apply_edit("app/mod.py", "y = 2", "y = 3")
    assert record.before_sha256 == sha256_text(before)
    assert record.after_sha256 == sha256_text("x = 1\ny = 3\n")
    assert "-y = 2" in record.diff and "+y = 3" in record.diff
    assert ws.read_file("app/mod.py") == "x = 1\ny = 3\n"


def test_edit_needs_a_unique_exact_match(ws):
    (ws.root / "app" / "mod.py").write_text("a = 1\na = 1\n")
    with pytest.raises(WorkspaceError, match="found 2 times"):
        ws.apply_edit("app/mod.py", "a = 1", "a = 2")
    with pytest.raises(WorkspaceError, match="not found"):
        ws.apply_edit("app/mod.py", "b = 1", "b = 2")


def test_fifty_megabyte_write_is_refused(ws):
    with pytest.raises(WorkspaceError, match="larger than"):
        ws.apply_edit("app/mod.py", "y = 2", "y = '" + "x" * 50_000_000 + "'")
    assert ws.read_file("app/mod.py") == "x = 1\ny = 2\n"


def test_journal_prevents_applying_an_edit_twice(ws, tmp_path):
    journal = tmp_path / "journal" / "call_1.json"
    first = ws.apply_edit("app/mod.py", "x = 1", "x = 1\nx += 1", journal=journal)
    # A crash before the checkpoint means the same call is executed again: it must be a no-op.
    again = ws.apply_edit("app/mod.py", "x = 1", "x = 1\nx += 1", journal=journal)
    assert again == first
    assert ws.read_file("app/mod.py") == "x = 1\nx += 1\ny = 2\n"


def test_list_and_search_skip_nothing_they_should_show(ws):
    assert ws.list_files(".") == ["app/mod.py", "tests/test_mod.py"]
    assert ws.search_code(r"y = \d") == ["app/mod.py:2: y = 2"]

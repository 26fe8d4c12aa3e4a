import os

import pytest

from astra_memory.errors import WorkspaceError
from astra_memory.workspace.files import Workspace, sha256_text


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
    with pytest.raises(WorkspaceError, match="symlink"):
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


# -- no symlink is ever followed, .git by no route (issue 11, part 1) -------------------------------
def test_a_symlink_planted_at_the_temp_name_is_never_written_through(ws, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("outside, untouched")
    os.symlink(victim, ws.root / "app" / ".mod.py.astra-tmp")
    ws.apply_edit("app/mod.py", "y = 2", "y = 3")
    assert victim.read_text() == "outside, untouched"
    assert (ws.root / "app" / "mod.py").read_text() == "x = 1\ny = 3\n"
    assert not [p.name for p in (ws.root / "app").iterdir() if p.name.endswith(".tmp")]  # no temp file left


def test_an_edit_replaces_the_entry_and_keeps_the_file_mode(ws):
    target = ws.root / "app" / "mod.py"
    target.chmod(0o640)
    ws.apply_edit("app/mod.py", "y = 2", "y = 3")
    assert (target.stat().st_mode & 0o777) == 0o640


def test_a_symlink_to_git_reaches_nothing_inside_it(ws):
    (ws.root / ".git").mkdir()
    (ws.root / ".git" / "config").write_text("[core]\n\tbare = false\n")
    os.symlink(".git", ws.root / "gitlink")
    os.symlink(".git/config", ws.root / "app" / "cfg")
    for path in ("gitlink/config", "app/cfg", ".GIT/config", "a/../.git/config", "./.git/config", ".git"):
        with pytest.raises(WorkspaceError):
            ws.read_file(path)
        with pytest.raises(WorkspaceError):
            ws.apply_edit(path, "bare = false", "bare = true")
    with pytest.raises(WorkspaceError):
        ws.list_files("gitlink")
    assert (ws.root / ".git" / "config").read_text() == "[core]\n\tbare = false\n"
    assert not any(".git" in rel or "gitlink" in rel for rel in ws.list_files("."))
    assert ws.search_code("bare") == []


def test_a_symlinked_folder_pointing_outside_is_refused(ws, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "mod.py").write_text("y = 2\n")
    os.symlink(outside, ws.root / "lib")
    with pytest.raises(WorkspaceError, match="symlink"):
        ws.read_file("lib/mod.py")
    with pytest.raises(WorkspaceError, match="symlink"):
        ws.apply_edit("lib/mod.py", "y = 2", "y = 3")
    with pytest.raises(WorkspaceError, match="symlink"):
        ws.list_files("lib")
    assert (outside / "mod.py").read_text() == "y = 2\n"


def test_listing_and_search_do_not_descend_into_symlinked_folders(ws, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "leak.py").write_text("y = 99 secret\n")
    os.symlink(outside, ws.root / "app" / "vendor")
    os.symlink(tmp_path / "outside.txt", ws.root / "app" / "notes.txt")
    assert ws.list_files(".") == ["app/mod.py", "tests/test_mod.py"]
    assert ws.search_code("secret") == []


def test_files_that_are_not_plain_text_are_refused_as_errors(ws):
    (ws.root / "app" / "blob.py").write_bytes(b"\x00\x01binary")
    (ws.root / "app" / "latin.py").write_bytes("x = 'caf\u00e9'\n".encode("latin-1"))
    os.mkfifo(ws.root / "app" / "pipe.py")
    os.link(ws.root / "app" / "mod.py", ws.root / "app" / "hard.py")
    with pytest.raises(WorkspaceError, match="binary"):
        ws.read_file("app/blob.py")
    with pytest.raises(WorkspaceError, match="not UTF-8"):
        ws.apply_edit("app/latin.py", "x", "y")
    with pytest.raises(WorkspaceError, match="not a regular file"):
        ws.read_file("app/pipe.py")  # a FIFO must not block the session
    with pytest.raises(WorkspaceError, match="folder"):
        ws.apply_edit("app", "x", "y")
    with pytest.raises(WorkspaceError, match="hard links"):
        ws.read_file("app/hard.py")


@pytest.mark.parametrize("path", ["a" * 300, "app/" + "b" * 256 + ".py", "x/" * 260, "app/\ud800.py", "."])
def test_overlong_or_broken_paths_are_workspace_errors(ws, path):
    with pytest.raises(WorkspaceError):
        ws.read_file(path)
    with pytest.raises(WorkspaceError):
        ws.apply_edit(path, "a", "b")
    if path != ".":
        with pytest.raises(WorkspaceError):
            ws.list_files(path)


def test_a_scenario_symlink_out_is_copied_as_a_link_and_never_read(tmp_path):
    import shutil

    from astra_memory.scenarios import BUNDLED_DIR, load_scenario

    secret = tmp_path / "secret.txt"
    secret.write_text("private key")
    hostile = tmp_path / "hostile"
    shutil.copytree(BUNDLED_DIR / "alpha", hostile)
    os.symlink(secret, hostile / "project" / "app" / "leak.txt")
    workspace = load_scenario(hostile).copy_to(tmp_path / "copy")
    assert (workspace / "app" / "leak.txt").is_symlink()  # not a copy of the target's content
    with pytest.raises(WorkspaceError, match="symlink"):
        Workspace(workspace).read_file("app/leak.txt")

"""A project that cannot be snapshot ends the session ``failed`` with the path, never a traceback,
and resuming the thread says the same (issue 21, part 7a).

As root (where the suite runs) a file with mode 000 is still readable, so the unreadable cases are
the ones no user can read: a named pipe and a socket (opening either would block or fail; neither
is ever opened), beside the symlink loop (``a -> b``, ``b -> a``) that made the copy raise.
"""

from __future__ import annotations

import json
import os
import re
import socket
from pathlib import Path

import pytest

from astra_memory.errors import WorkspaceError
from astra_memory.session.run import resume_session, start_session, workspace_task
from astra_memory.workspace.snapshot import SnapshotError, take_snapshot
from tests.conftest import run_cli
from tests.helpers import PROJECT_TESTS

COMMAND = PROJECT_TESTS


def failing_project(root: Path) -> Path:
    (root / "app").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "app" / "__init__.py").write_text("")
    (root / "app" / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (root / "tests" / "test_calc.py").write_text("from app.calc import add\n\n\ndef test_add():\n"
                                                 "    assert add(2, 3) == 5\n")
    return root


def symlink_loop(root: Path) -> str:
    os.symlink("b", root / "app" / "a")
    os.symlink("a", root / "app" / "b")
    return "app/a"


def named_pipe(root: Path) -> str:
    os.mkfifo(root / "app" / "events.pipe")
    return "app/events.pipe"


def unix_socket(root: Path) -> str:
    path = root / "app" / "s.sock"
    with socket.socket(socket.AF_UNIX) as server:  # the file stays after the socket is closed
        server.bind(str(path))
    return "app/s.sock"


CASES = [(symlink_loop, "is a symlink loop"), (named_pipe, "is a named pipe (FIFO)"), (unix_socket, "is a socket")]


@pytest.mark.parametrize(("make", "says"), CASES, ids=["symlink loop", "named pipe", "socket"])
def test_snapshot_refuses_with_the_path_and_leaves_no_copy(tmp_path, make, says):
    root = failing_project(tmp_path / "proj")
    rel = make(root)
    with pytest.raises(SnapshotError, match=re.escape(says)) as raised:
        take_snapshot(root, tmp_path / "run" / "pristine")
    assert repr(rel) in str(raised.value) and str(root) in str(raised.value)
    assert isinstance(raised.value, WorkspaceError) and isinstance(raised.value, OSError)
    assert not (tmp_path / "run" / "pristine").exists() and not (tmp_path / "run" / "pristine.partial").exists()


def test_a_dangling_link_and_a_link_outside_are_copied_as_links(tmp_path):
    root = failing_project(tmp_path / "proj")
    os.symlink("missing.py", root / "app" / "dangling.py")
    os.symlink(tmp_path, root / "app" / "outside")
    copy = take_snapshot(root, tmp_path / "run" / "pristine")
    assert os.readlink(copy / "app" / "dangling.py") == "missing.py" and (copy / "app" / "outside").is_symlink()


@pytest.mark.parametrize(("make", "says"), CASES, ids=["symlink loop", "named pipe", "socket"])
def test_the_session_ends_failed_with_the_path_and_resume_says_the_same(agent, settings, tmp_path, make, says):
    root = failing_project(tmp_path / "proj")
    rel = make(root)
    task = {**workspace_task(root, COMMAND, settings, "unsnappable"), "approve_edits": False}
    final = start_session(agent, task)
    assert final["status"] == "failed" and says in final["reason"] and repr(rel) in final["reason"]
    assert not final.get("test_runs") and not final.get("memory")  # nothing ran on a project it cannot copy
    again, ran = resume_session(agent, "unsnappable")
    assert not ran and (again["status"], again["reason"]) == (final["status"], final["reason"])


@pytest.mark.slow
def test_the_command_line_reports_a_symlink_loop_without_a_traceback(tmp_path):
    root = failing_project(tmp_path / "proj")
    symlink_loop(root)
    run = run_cli("run", "--workspace", str(root), "--test-command", COMMAND, "--thread-id", "loop-cli", "--json")
    assert "Traceback" not in run.stderr and run.returncode != 0, run.stderr
    first = json.loads(run.stdout)
    assert first["status"] == "failed" and "'app/a'" in first["reason"] and "symlink loop" in first["reason"]
    resumed = run_cli("resume", "loop-cli", "--json")
    assert "Traceback" not in resumed.stderr, resumed.stderr
    again = json.loads(resumed.stdout)
    assert (again["status"], again["reason"]) == (first["status"], first["reason"])

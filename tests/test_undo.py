"""Issue 36 item 6: a failed session on your own project says what it left there, and `undo` puts
back what was there before, byte for byte, all files or none, never over a file changed since."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

from astra_memory.context import Context
from astra_memory.scenarios import load_scenario
from astra_memory.session.run import start_session, workspace_task
from tests.conftest import cli_env, run_cli
from tests.helpers import ALPHA_DIAGNOSIS, FINISH, PROJECT_TESTS, call
from tests.test_resume_hints import path_without_this_venv

WRONG = call("apply_edit", path="app/settings.py", old_text="if origin]", new_text="if origin and origin]")


def _own_project(tmp_path: Path) -> Path:
    project = tmp_path / "shop"
    load_scenario("alpha").copy_to(project)
    return project


def _bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts}


def _failed_session(agent, settings, project: Path, thread_id: str) -> dict:
    task = workspace_task(project, PROJECT_TESTS, settings, thread_id)
    task["script"] = [ALPHA_DIAGNOSIS, WRONG, FINISH]
    final = start_session(agent, task, context=Context(approve_edits=False))
    assert final["status"] == "failed" and [e["path"] for e in final["edits"]] == ["app/settings.py"]
    return final


def test_undo_puts_back_a_failed_sessions_edit_byte_for_byte(agent, settings, tmp_path):
    project = _own_project(tmp_path)
    before = _bytes(project)
    _failed_session(agent, settings, project, "undo-failed")
    assert _bytes(project)["app/settings.py"] != before["app/settings.py"]  # the wrong edit was left
    shown = run_cli("resume", "undo-failed")  # a finished session prints its end again
    assert "left in your project, not confirmed: app/settings.py" in shown.stdout
    assert "astra-memory undo undo-failed" in shown.stdout
    undone = run_cli("undo", "undo-failed", "--json")
    assert undone.returncode == 0, undone.stderr
    assert json.loads(undone.stdout)["restored"] == ["app/settings.py"]
    assert _bytes(project) == before
    again = run_cli("undo", "undo-failed")
    assert again.returncode == 0 and "already as it was" in again.stdout


def test_undo_never_overwrites_a_file_changed_since(agent, settings, tmp_path):
    project = _own_project(tmp_path)
    _failed_session(agent, settings, project, "undo-changed")
    mine = project / "app" / "settings.py"
    mine.write_text(mine.read_text() + "# my own line\n")
    kept = mine.read_bytes()
    refused = run_cli("undo", "undo-changed")
    assert refused.returncode == 2
    assert "app/settings.py" in refused.stderr and "changed after the session's last edit" in refused.stderr
    assert mine.read_bytes() == kept


def test_undo_refuses_an_unknown_thread(settings):
    refused = run_cli("undo", "no-such-thread")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr


def test_a_failed_session_shows_what_it_leaves_as_one_change_not_each_try(agent, settings, tmp_path):
    """The new-user run on toolz: three tries at one line ended `failed` and the terminal printed three
    diffs, each over the one before; what is left in the project is one change from before the session."""
    project = _own_project(tmp_path)
    again = call("apply_edit", path="app/settings.py", old_text="if origin and origin]",
                 new_text="if origin and origin.strip()]")
    task = workspace_task(project, PROJECT_TESTS, settings, "undo-net")
    task["script"] = [ALPHA_DIAGNOSIS, WRONG, again, FINISH]
    final = start_session(agent, task, context=Context(approve_edits=False, max_attempts=1))
    assert final["status"] == "failed" and len(final["edits"]) == 2
    shown = run_cli("resume", "undo-net", env=cli_env(PATH=path_without_this_venv()))  # it prints its end again
    assert "what the session leaves in your project (before it -> now):" in shown.stdout
    assert shown.stdout.count("--- a/app/settings.py") == 1, shown.stdout
    assert "-    return [origin for origin in raw.split(\",\") if origin]" in shown.stdout
    assert "+    return [origin for origin in raw.split(\",\") if origin and origin.strip()]" in shown.stdout
    assert "if origin and origin]" not in shown.stdout  # the first try, overwritten by the second
    assert "; to put back what was there before the session:\n    " in shown.stdout  # the command: a line alone
    # As printed, in a shell where the venv is not activated (after scripts/demo.sh), it runs.
    (hint,) = re.findall(r"^    (\S+ undo undo-net)$", shown.stdout, re.M)
    undone = subprocess.run(shlex.split(hint), capture_output=True, text=True, cwd=tmp_path,
                            env=cli_env(PATH=path_without_this_venv()))
    assert undone.returncode == 0, undone.stderr

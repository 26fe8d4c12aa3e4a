"""A real library from PyPI, end to end (issue 22, "Done when"): ``inflection`` 0.5.1 (MIT, vendored
as released in tests/data/inflection-0.5.1 with its LICENSE and its own 400-odd tests), one bug
injected into a copy, its tests run by a real virtualenv's interpreter (not the tool's).

- Session 1, from "that venv's shell" (its PATH and VIRTUAL_ENV): the scripted model makes the
  right edit, a fix whose diff ends with a blank context line (the line after ``ordinal``'s return);
  it is confirmed in a fresh copy and stored byte for byte.
- Session 2, on a fresh copy with the same bug, the interpreter given as ``--python`` would give it:
  the stored diff replays with 0 model requests and the session ends fixed.
- The same project on an interpreter that lacks a dependency (pytest) ends ``cannot_run`` naming it.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from astra_memory.events import read_events
from astra_memory.session.run import start_session, workspace_task
from astra_memory.workspace.diffs import diff_problem
from tests.helpers import PROJECT_PYTEST, call, clone, make_venv, repository

LIBRARY = Path(__file__).parent / "data" / "inflection-0.5.1"
SOURCE = "inflection/__init__.py"
RIGHT = '            3: "rd",\n'
BUG = '            3: "nd",\n'  # ordinal(3) -> "nd": 3rd, 23rd, 103rd ... come out as "3nd"
TEST_COMMAND = f"{PROJECT_PYTEST} test_inflection.py"
SYSTEM = "/usr/local/bin:/usr/bin:/bin"
SCRIPT = [
    call("state_diagnosis", error_type="AssertionError",
         cause="ordinal() maps a final digit 3 to the suffix 'nd' instead of 'rd'.", files=[SOURCE]),
    call("apply_edit", path=SOURCE, old_text=BUG, new_text=RIGHT),
    call("finish", fix_description="ordinal(): numbers ending in 3 (not 13) take the suffix 'rd'.",
         error_type="AssertionError"),
]


@pytest.fixture(scope="module")
def project_venv(tmp_path_factory) -> Path:
    """The project's own virtualenv: pytest (reached through the tool's site-packages), no inflection."""
    return make_venv(tmp_path_factory.mktemp("inflection-venv") / "venv", tool_packages=True)


def buggy_copy(where: Path) -> Path:
    """A user's checkout (a git clone) of inflection, with the bug: every checkout is one project."""
    origin = where.parent / "origin" / "inflection"
    if not origin.exists():
        repository(_buggy(origin))
    return clone(origin, where / "inflection")


def _buggy(root: Path) -> Path:
    shutil.copytree(LIBRARY, root)
    source = root / SOURCE
    text = source.read_text(encoding="utf-8")
    assert text.count(RIGHT) == 1
    source.write_text(text.replace(RIGHT, BUG), encoding="utf-8")
    return root


def test_licence_is_kept_with_the_vendored_library():
    licence = (LIBRARY / "LICENSE").read_text()
    assert "Permission is hereby granted, free of charge" in licence and "Janne Vanhala" in licence
    assert "License: MIT" in (LIBRARY / "PKG-INFO").read_text()


def test_a_fix_ending_in_a_blank_line_is_stored_then_replayed_with_no_model(agent, settings, tmp_path, project_venv):
    first = buggy_copy(tmp_path / "one")
    shell = {"PATH": f"{project_venv}/bin:{SYSTEM}", "VIRTUAL_ENV": str(project_venv)}
    task = {**workspace_task(first, TEST_COMMAND, settings, "inflection-1", environ=shell),
            "script": SCRIPT, "approve_edits": False}
    final = start_session(agent, task)
    assert final["status"] == "fixed", final["reason"]
    observe = final["test_runs"][0]
    failing = sorted(t for t, result in observe["tests"].items() if result == "failed")
    assert failing == sorted(f"test_inflection.py::test_{name}[{n}-{n}rd]" for name in ("ordinal", "ordinalize")
                             for n in (3, 23, 103, -3, -23, -103))  # the library's own parametrized ids
    assert sum(result == "passed" for result in observe["tests"].values()) > 400  # its whole suite ran
    # `python` in the command is the venv's, as in that shell; the tool's interpreter is not on the PATH.
    test_env = final["task"]["test_env"]
    assert shutil.which("python", path=test_env["PATH"]) == str(project_venv / "bin" / "python")
    assert str(Path(sys.executable).parent) not in test_env["PATH"] and test_env["VIRTUAL_ENV"] == str(project_venv)
    assert final["budget"]["model_requests"] == len(SCRIPT)

    record = agent.memory.get(final["stored_memory_id"])
    assert record.diff.endswith("\n \n")  # the closing blank context line, kept byte for byte
    assert record.diff == final["edits"][0]["diff"] and diff_problem(record.diff) is None
    assert (first / SOURCE).read_text() == (LIBRARY / SOURCE).read_text()

    second = buggy_copy(tmp_path / "two")
    task = {**workspace_task(second, TEST_COMMAND, settings, "inflection-2", environ={"PATH": SYSTEM},
                             python=str(project_venv / "bin" / "python")), "approve_edits": False}
    again = start_session(agent, task)
    assert again["status"] == "fixed", again["reason"]
    prepare = [e for e in read_events(again["task"]["run_dir"]) if e["event"] == "prepare"][0]
    assert str(project_venv / "bin" / "python") in prepare["interpreter"]  # --python, said at prepare
    assert again["replay"]["replayed"] == record.memory_id and again["replay"]["passed_over"] == []
    assert again["budget"].get("model_requests", 0) == 0 and not again.get("messages", [])[1:]
    assert (second / SOURCE).read_text() == (LIBRARY / SOURCE).read_text()
    assert [(c.thread_id, c.kind) for c in agent.memory.get(record.memory_id).confirmations] == [
        ("inflection-1", "fix"), ("inflection-2", "replay")]


def test_an_interpreter_lacking_a_dependency_cannot_run_and_names_it(agent, settings, tmp_path):
    bare = make_venv(tmp_path / "bare", tool_packages=False)
    project = buggy_copy(tmp_path / "three")
    task = workspace_task(project, TEST_COMMAND, settings, "inflection-bare", environ={"PATH": SYSTEM},
                          python=str(bare / "bin" / "python"))
    final = start_session(agent, task)
    assert final["status"] == "cannot_run", final["reason"]
    assert "(missing_module)" in final["reason"] and "pytest" in final["reason"]
    assert f"{bare}/bin/python" in final["reason"]  # the interpreter that ran, named
    assert not final.get("memory") and final["budget"].get("model_requests", 0) == 0

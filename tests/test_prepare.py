"""The graph's entry (`prepare`): minimal inputs are completed, bad ones refused with the field and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph_api.serde import default as langgraph_api_encode

from astra_memory.context import Context
from astra_memory.errors import AstraError, ScenarioError
from astra_memory.scenarios import load_scenario
from astra_memory.settings import Settings, default_home
from astra_memory.tasks import TaskInputError, complete_task


def test_a_minimal_scenario_input_runs_to_fixed(agent, settings):
    final = agent.graph.invoke({"task": {"scenario": "alpha"}}, agent.config("minimal-alpha"), context=Context(),
                               durability="sync")
    task = final["task"]
    assert final["status"] == "fixed" and final["stored_memory_id"]
    assert task["session_id"] == "minimal-alpha" and task["scenario"] == "alpha" and task["project"] == "corsgate"
    assert Path(task["run_dir"]) == settings.run_dir("minimal-alpha").resolve()
    assert Path(task["workspace"]) == Path(task["run_dir"]) / "workspace"  # a fresh copy, not the template
    assert task["approve_edits"] is False and task["knobs"]["max_attempts"] == Context().max_attempts
    assert (Path(task["run_dir"]) / "report.json").is_file()
    with pytest.raises(TaskInputError, match="already ran a session"):  # a second task on the thread
        agent.graph.invoke({"task": {"scenario": "beta"}}, agent.config("minimal-alpha"), context=Context())


def test_a_minimal_workspace_input_is_completed(settings, tmp_path):
    (tmp_path / "proj").mkdir()
    task = complete_task({"workspace": str(tmp_path / "proj"), "test_command": "python -m pytest -q",
                          "prompt": ""}, thread_id="ws-1", settings=settings, context=Context())
    assert task["workspace"] == str((tmp_path / "proj").resolve()) and task["project"] == "proj"
    assert task["protected"] == ["tests"] and task["session_id"] == "ws-1" and task["model"] == "scripted"
    assert "python -m pytest -q" in task["prompt"]  # the default prompt, not the blank form field
    assert task["approve_edits"] is True  # your own project, edited in place: ask first
    off = complete_task({"workspace": str(tmp_path / "proj"), "test_command": "pytest"}, thread_id="ws-2",
                        settings=settings, context=Context(approve_edits=False))
    assert off["approve_edits"] is False


@pytest.mark.parametrize("raw, words", [
    (None, ["has no task", '{"task": {"scenario": "alpha"}}']),
    ({"scenari": "alpha"}, ["task.scenari: unknown field", "scenario, workspace"]),
    ({"scenario": "nope"}, ["task.scenario: no scenario 'nope'", "alpha"]),
    ({"workspace": "relative/dir", "test_command": "pytest"}, ["task.workspace", "not an absolute path"]),
    ({"workspace": "/no/such/project", "test_command": "pytest"}, ["task.workspace: /no/such/project does not exist"]),
    ({"workspace": "/", "test_command": ""}, ["task.test_command is missing", "python -m pytest -q"]),
    ({"workspace": "/", "test_command": "pytest 'unclosed"}, ["task.test_command", "cannot be split"]),
    ({"scenario": "alpha", "workspace": "/"}, ["task.scenario and task.workspace were both given"]),
    ({"scenario": "alpha", "max_attempts": "x"}, ["task.max_attempts: unknown field"]),
    ({"scenario": "alpha", "protected": "tests"}, ["task.protected", "list"]),
    ({"scenario": "alpha", "model": "openai:gpt-4.1-mini"}, ["task.model", "live model", "cost guard"]),
])
def test_bad_input_names_the_field_and_the_fix(settings, raw, words):
    with pytest.raises(TaskInputError) as caught:
        complete_task(raw, thread_id="bad", settings=settings, context=Context())
    for word in words:
        assert word in str(caught.value)
    assert not settings.run_dir("bad").exists()  # refused before anything was written


def test_langgraph_api_shows_our_messages_not_an_internal_error():
    """langgraph-api masks the message of any exception type it does not list; ValueError it shows."""
    for error in (TaskInputError("task.workspace: /x does not exist"), ScenarioError("no scenario 'x'")):
        assert isinstance(error, (AstraError, ValueError))
        assert langgraph_api_encode(error) == {"error": type(error).__name__, "message": str(error)}


def test_a_file_is_not_a_workspace(settings, tmp_path):
    (tmp_path / "f.py").write_text("x = 1\n")
    with pytest.raises(TaskInputError, match="is not a folder"):
        complete_task({"workspace": str(tmp_path / "f.py"), "test_command": "pytest"}, thread_id="f",
                      settings=settings, context=Context())


def test_default_data_location_is_outside_the_current_folder(monkeypatch, tmp_path):
    """`langgraph dev` reloads on any .py change under the folder it serves: data must live elsewhere."""
    monkeypatch.delenv("ASTRA_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert Settings().home == default_home() == tmp_path / "xdg" / "astra-memory"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "me"))
    assert Settings().home == tmp_path / "me" / ".local" / "share" / "astra-memory"
    monkeypatch.setenv("ASTRA_HOME", str(tmp_path / "mine"))
    assert Settings().home == tmp_path / "mine"
    assert not Settings().home.is_relative_to(Path.cwd())


def test_a_scenario_copy_cut_off_before_its_checkpoint_is_made_again(settings):
    leftover = settings.run_dir("cut") / "workspace"
    (leftover / "app").mkdir(parents=True)
    (leftover / "app" / "half.py").write_text("")
    task = complete_task({"scenario": "alpha"}, thread_id="cut", settings=settings, context=Context())
    assert not (leftover / "app" / "half.py").exists()
    assert (Path(task["workspace"]) / "app" / "settings.py").read_text() == \
        (load_scenario("alpha").template / "app" / "settings.py").read_text()


def test_the_tasks_own_approve_edits_wins(settings):
    """`{"task": {"scenario": "alpha", "approve_edits": true}}` asks before each edit (Studio, scripts)."""
    from astra_memory.context import Context
    from astra_memory.tasks import complete_task

    asked = complete_task({"scenario": "alpha", "approve_edits": True}, thread_id="asks", settings=settings,
                          context=Context())
    assert asked["approve_edits"] is True
    default = complete_task({"scenario": "alpha"}, thread_id="default", settings=settings, context=Context())
    assert default["approve_edits"] is False  # a bundled scenario's fresh copy: no one is asked by default


def test_the_prepare_line_names_the_interpreter_a_test_command_names():
    """The humanize new-user run: `--test-command '/tmp/v36-lib/bin/python -m pytest ...'` was shown as
    "tests run on the python/pytest first on the PATH", which played no part."""
    from astra_memory.tasks import interpreter_note

    task = {"workspace": "/w", "test_command": "/opt/lib-venv/bin/python -m pytest -q tests"}
    assert interpreter_note(task) == "tests run on /opt/lib-venv/bin/python, as the test command names it"
    for command in ("python -m pytest -q", "sh -c '/opt/v/bin/python -m pytest'", "pytest 'unclosed"):
        assert "first on the PATH" in interpreter_note({"workspace": "/w", "test_command": command}), command
    assert interpreter_note({"workspace": "/w", "test_command": "/x/python -m pytest", "python": "/y/python"}) == (
        "tests run on /y/python (given)")

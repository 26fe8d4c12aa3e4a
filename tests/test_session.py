"""Whole sessions through the compiled graph, as scripts use it."""

from pathlib import Path

import pytest

from astra_memory.backends.sqlite.store import open_sqlite_store
from astra_memory.checkpoints import open_checkpointer
from astra_memory.context import Context
from astra_memory.errors import ConfigurationError, ScenarioError
from astra_memory.graph import builder
from astra_memory.scenarios import list_scenarios, load_scenario
from astra_memory.session.run import start_session, workspace_task
from astra_memory.stores.embeddings import HashEmbeddings
from astra_memory.stores.memory import FixMemory
from tests.helpers import PROJECT_PYTEST, PROJECT_TESTS, task_with_script


def test_graph_invoke_from_a_plain_script(tmp_path, settings):
    """The README's script example: compile with a checkpointer and a store, invoke with a thread id."""
    task = task_with_script(settings, "script-thread")
    with open_checkpointer(tmp_path / "cp.sqlite") as saver, \
            open_sqlite_store(tmp_path / "mem.sqlite", HashEmbeddings()) as store:
        graph = builder.compile(checkpointer=saver, store=store)
        final = graph.invoke({"task": task}, config={"configurable": {"thread_id": "script-thread"}},
                             context=Context(), durability="sync")
        assert final["status"] == "fixed"
        assert final["passed_outcome"] == "4 of 4 failing tests now pass; 4 passed, 0 failed"
        record = FixMemory(store).get(final["stored_memory_id"])
        assert record.outcome == final["passed_outcome"]  # stored verbatim
        assert record.file_paths == ["app/settings.py"] and "+    return [origin.strip()" in record.diff
        assert record.model == "scripted"
    assert not (load_scenario("alpha").template / "app" / "settings.py").read_text().count("strip()")


def test_the_fix_is_confirmed_against_the_original_tests_in_a_fresh_copy(agent, settings):
    """The snapshot is taken before the first test run: a test file changed in the workspace after
    that does not reach the fresh copy."""
    task = task_with_script(settings, "retest")
    original = (Path(task["workspace"]) / "tests" / "test_cors.py").read_text()
    final = start_session(agent, task)
    assert final["confirm"]["passed"] and final["confirm"]["outcome"] == "4 of 4 failing tests now pass; 4 passed, 0 failed"
    assert (Path(final["pristine"]) / "tests" / "test_cors.py").read_text() == original
    assert (Path(task["run_dir"]) / "confirm" / "tests" / "test_cors.py").read_text() == original


def test_a_passing_project_ends_nothing_to_fix(agent, settings, tmp_path):
    (tmp_path / "proj" / "tests").mkdir(parents=True)
    (tmp_path / "proj" / "tests" / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    task = workspace_task(tmp_path / "proj", PROJECT_TESTS, settings, "ok-thread")
    final = start_session(agent, task)
    assert final["status"] == "nothing_to_fix" and agent.memory.count() == 0


def test_a_missing_test_command_is_refused_before_the_session_starts(agent, settings, tmp_path):
    (tmp_path / "proj").mkdir()
    task = workspace_task(tmp_path / "proj", "no-such-test-runner --all", settings, "bad-cmd")
    with pytest.raises(ConfigurationError, match="not found on the test PATH"):
        start_session(agent, task)
    assert agent.graph.get_state(agent.config("bad-cmd")).values == {}


def test_a_project_without_tests_ends_cannot_run(agent, settings, tmp_path):
    (tmp_path / "proj").mkdir()
    task = workspace_task(tmp_path / "proj", PROJECT_PYTEST, settings, "no-tests")
    final = start_session(agent, task)
    assert final["status"] == "cannot_run" and "no tests" in final["reason"] and not final.get("memory")


def test_a_scenario_folder_without_tests_is_refused(tmp_path):
    (tmp_path / "s" / "project" / "app").mkdir(parents=True)
    (tmp_path / "s" / "scenario.toml").write_text('name = "s"\nfamily = "f"\nprompt = "p"\ntest_command = "x"\n')
    with pytest.raises(ScenarioError, match="no tests"):
        load_scenario(tmp_path / "s")
    with pytest.raises(ScenarioError, match="no scenario"):
        load_scenario("no-such-scenario")


def test_bundled_alpha_and_beta_are_there():
    names = {s.name for s in list_scenarios()}
    assert {"alpha", "beta"} <= names


def test_scripted_model_without_a_script_says_what_to_do(agent, settings, tmp_path):
    (tmp_path / "proj" / "tests").mkdir(parents=True)
    (tmp_path / "proj" / "tests" / "test_x.py").write_text("def test_x():\n    assert False\n")
    task = workspace_task(tmp_path / "proj", PROJECT_TESTS, settings, "no-script")
    final = start_session(agent, task)  # ends, named, before any model turn: what was tried and what to do
    assert final["status"] == "needs_model" and "no model configured" in final["reason"]
    assert "--model openai:" in final["reason"] and "--approve-live-cost" in final["reason"]  # a command that is accepted
    assert final["replay"]["skipped"]
    assert final["memory"]["delivered"] and not agent.graph.get_state(agent.config("no-script")).next

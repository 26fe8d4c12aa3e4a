"""A thread id is a name, not a path: refused with exit 2 everywhere it enters, and default ids are safe slugs."""

from __future__ import annotations

import json
import shutil

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from astra_memory.graph import builder
from astra_memory.scenarios import load_scenario
from astra_memory.session.run import new_thread_id, resume_session, start_session
from astra_memory.settings import Settings
from astra_memory.thread_names import InvalidThreadIdError, check_thread_id, slug
from tests.conftest import cli_env, run_cli
from tests.helpers import task_with_script

BAD = ["/some/dir", "../../x", "a/b", "..", "a..b", "", "-x", ".hidden", "x" * 65, "new\nline", "tab\tid", "é"]


@pytest.mark.parametrize("bad", BAD)
def test_unsafe_ids_are_refused(bad):
    with pytest.raises(InvalidThreadIdError, match="not a valid name"):
        check_thread_id(bad)
    with pytest.raises(InvalidThreadIdError):
        Settings().run_dir(bad)


@pytest.mark.parametrize("good", ["alpha-1", "crash-thread", "A.b_c-9", "x" * 64, "session-0123456789ab"])
def test_safe_ids_pass(good):
    assert check_thread_id(good) == good


def test_default_ids_from_a_scenario_path_are_safe_slugs():
    tid = new_thread_id("/abs/path/to/my odd..scenario!")
    assert tid.startswith("my-odd-scenario-") and check_thread_id(tid) == tid
    assert slug("///") == "session" and check_thread_id(new_thread_id(".."))


def test_cli_refuses_a_path_as_thread_id(tmp_path, isolated_home):
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "report.json").write_text("precious")
    outside = isolated_home.parent / "x"
    for args in (("run", "alpha", "--thread-id", str(victim)), ("run", "alpha", "--thread-id", "../../x"),
                 ("resume", "../../x"), ("resume", str(victim)), ("cost", "--thread", "../x")):
        result = run_cli(*args)
        assert result.returncode == 2, (args, result.stderr)
        assert "Traceback" not in result.stderr and "not a valid name" in result.stderr
    assert (victim / "report.json").read_text() == "precious" and sorted(p.name for p in victim.iterdir()) == [
        "report.json"]
    assert not outside.exists() and not (isolated_home / "runs").exists()


def test_run_of_a_scenario_path_names_the_thread_by_a_slug(tmp_path, isolated_home):
    scenario = tmp_path / "my scenario"
    shutil.copytree(load_scenario("alpha").root, scenario)
    result = run_cli("run", str(scenario), "--json", env=cli_env())
    assert result.returncode == 0, result.stderr
    tid = json.loads(result.stdout)["thread_id"]
    assert tid.startswith("my-scenario-") and check_thread_id(tid) == tid
    assert (isolated_home / "runs" / tid / "report.json").is_file()
    assert sorted(p.name for p in scenario.iterdir()) == sorted(p.name for p in load_scenario("alpha").root.iterdir())


def test_library_refuses_unsafe_ids(agent, settings):
    task = task_with_script(settings, "fine-1")
    with pytest.raises(InvalidThreadIdError):
        start_session(agent, {**task, "session_id": "../escape"})
    with pytest.raises(InvalidThreadIdError):
        resume_session(agent, "/etc")


def test_studio_input_with_a_path_as_session_id_is_refused(settings):
    """Studio compiles the same graph with its own checkpointer and store; the task comes from its input."""
    graph = builder.compile(checkpointer=InMemorySaver(), store=InMemoryStore())
    task = {**task_with_script(settings, "studio-1"), "session_id": "../../elsewhere"}
    with pytest.raises(InvalidThreadIdError):
        graph.invoke({"task": task}, {"configurable": {"thread_id": "studio-1"}})

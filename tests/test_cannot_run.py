"""Tests that cannot run are not a bug to fix: observe ends the session `cannot_run`, saying what to
install or change, with no memory search and no model request. Real subprocesses, real interpreters."""

import shutil
import subprocess
from pathlib import Path

import pytest

from astra_memory.errors import ConfigurationError
from astra_memory.events import read_events
from astra_memory.session.preflight import check_workspace
from astra_memory.session.run import list_threads, start_session, workspace_task
from astra_memory.tasks import TaskInputError
from astra_memory.testrun.environment import cannot_run, command_problem
from astra_memory.testrun.isolation import degraded_reason
from astra_memory.testrun.run import run_tests
from tests.conftest import cli_env, run_cli
from tests.helpers import PROJECT_TESTS, make_venv

FAILING_TEST = "from app.core import answer\n\ndef test_answer():\n    assert answer() == 42\n"


def _project(root: Path, test_body: str = FAILING_TEST) -> Path:
    (root / "app").mkdir(parents=True)
    (root / "app" / "__init__.py").write_text("")
    (root / "app" / "core.py").write_text("def answer():\n    return 41\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_core.py").write_text(test_body)
    return root


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory) -> str:
    """A real interpreter without pytest: a fresh venv with nothing installed (no pip, ~1 s)."""
    python = make_venv(tmp_path_factory.mktemp("bare") / "venv", tool_packages=False) / "bin" / "python"
    assert subprocess.run([python, "-c", "import pytest"], capture_output=True).returncode != 0
    return str(python)


def _assert_ended_at_observe(final: dict, kind: str) -> None:
    assert final["status"] == "cannot_run", final.get("reason")
    assert f"({kind})" in final["reason"]
    assert final["last_node"] == "report" and not final.get("memory") and not final.get("failure")
    assert not final.get("messages") and (final.get("budget") or {}).get("model_requests", 0) == 0
    kinds = [e["event"] for e in read_events(final["task"]["run_dir"])]
    assert "memory_search" not in kinds and "model_turn" not in kinds


def test_no_module_named_pytest_ends_cannot_run_without_a_memory_search(agent, settings, tmp_path, bare_python):
    task = workspace_task(_project(tmp_path / "proj"), f"{bare_python} -m pytest -q tests", settings, "no-pytest")
    final = start_session(agent, task)
    _assert_ended_at_observe(final, "missing_module")
    assert f"{bare_python} -m pip install pytest" in final["reason"]
    assert final["test_runs"][0]["output"].strip().endswith("No module named pytest")  # what observe saw


def test_a_collection_error_on_a_missing_third_party_package_cannot_run(agent, settings, tmp_path):
    body = "import definitely_not_installed_pkg\n\n" + FAILING_TEST
    task = workspace_task(_project(tmp_path / "proj", body), PROJECT_TESTS,
                          settings, "no-pkg")
    final = start_session(agent, task)
    _assert_ended_at_observe(final, "missing_module")
    assert "'definitely_not_installed_pkg' (tests/test_core.py:1) is not installed" in final["reason"]


def test_a_missing_project_module_is_a_bug_to_fix_not_the_environment(tmp_path):
    """`from app.helpers import x` where app/helpers.py does not exist: the project's bug."""
    root = _project(tmp_path / "proj", "from app.helpers import answer\n\ndef test_answer():\n    assert answer()\n")
    run = run_tests(root, PROJECT_TESTS)
    assert not run.passed and "No module named 'app.helpers'" in run.output
    assert cannot_run(run, root) is None
    run = run_tests(root, "python -c 'import app.nothere'")  # same through `python -c`
    assert cannot_run(run, root) is None


def test_failing_tests_are_not_cannot_run(tmp_path):
    root = _project(tmp_path / "proj")
    run = run_tests(root, PROJECT_TESTS)
    assert run.counts == {"failed": 1} and cannot_run(run, root) is None


@pytest.mark.parametrize("command, kind", [
    ("python -m pytest -q -p no:cacheprovider --no-such-option tests", "usage_error"),
    ("python -m pytest -q -p no:cacheprovider tests/nothing_here_k", "usage_error"),
    ("python -m pytest -q -p no:cacheprovider -k nomatchanywhere tests", "no_tests"),
])
def test_pytest_usage_errors_and_no_tests_cannot_run(tmp_path, command, kind):
    root = _project(tmp_path / "proj")
    found = cannot_run(run_tests(root, command), root)
    assert found is not None and found.kind == kind


def test_a_missing_workspace_is_refused_at_the_graphs_entry(agent, settings, tmp_path):
    """Studio and scripts may skip the preflight: the graph's first node (prepare) names the field,
    before anything runs; nothing is checkpointed past it."""
    task = workspace_task(_project(tmp_path / "proj"), "python -m pytest -q tests", settings, "gone")
    shutil.rmtree(task["workspace"])
    with pytest.raises(TaskInputError, match="task.workspace: .* does not exist"):
        agent.graph.invoke({"task": task}, agent.config("gone"), durability="sync")
    assert not agent.graph.get_state(agent.config("gone")).values.get("test_runs")


def test_a_workspace_gone_before_observe_ends_there_named(agent, settings, tmp_path):
    """A resumed session whose workspace vanished after prepare: observe says so, runs nothing."""
    task = workspace_task(_project(tmp_path / "proj"), "python -m pytest -q tests", settings, "gone-later")
    config = agent.config("gone-later")
    agent.graph.invoke({"task": task}, config, durability="sync", interrupt_after=["prepare"])
    shutil.rmtree(task["workspace"])
    final = agent.graph.invoke(None, config, durability="sync")
    _assert_ended_at_observe(final, "missing_workspace")
    assert "does not exist" in final["reason"] and not final.get("test_runs")


def test_preflight_checks_workspace_and_command_before_a_thread_exists(agent, settings, tmp_path):
    root = _project(tmp_path / "proj")
    with pytest.raises(ConfigurationError, match="does not exist"):
        check_workspace(tmp_path / "nope", "python -m pytest")
    assert command_problem("python -m pytest 'unclosed", root).kind == "bad_command"
    assert command_problem("", root).kind == "bad_command"
    assert command_problem("no-such-runner-xyz --all", root).kind == "command_not_found"
    assert command_problem("./run.sh", root).kind == "command_not_found"
    (root / "run.sh").write_text("#!/bin/sh\nexit 0\n")
    assert command_problem("./run.sh", root) is None
    assert "use ./run.sh" in command_problem("run.sh", root).message
    assert command_problem("python -m pytest -q", root) is None
    for command in ("python -m pytest 'unclosed", "no-such-runner-xyz --all"):
        task = workspace_task(root, command, settings, f"pre-{len(command)}")
        with pytest.raises(ConfigurationError):
            start_session(agent, task)
    assert list_threads(agent) == []  # nothing half-run


@pytest.mark.slow
def test_cli_run_refuses_a_missing_workspace_and_a_bad_command_before_starting(tmp_path):
    root = _project(tmp_path / "proj")
    result = run_cli("run", "--workspace", str(tmp_path / "nope"), "--test-command", "python -m pytest")
    assert result.returncode == 2 and "does not exist" in result.stderr
    result = run_cli("run", "--workspace", str(root), "--test-command", "no-such-runner-xyz")
    assert result.returncode == 2 and "not found on the test PATH" in result.stderr
    threads = run_cli("threads", "--json")
    assert threads.returncode == 0 and threads.stdout.strip() == "[]"


@pytest.mark.slow
def test_cli_run_without_a_model_ends_needs_model_not_interrupted(tmp_path):
    """The scripted model without a script: the session ends `needs_model` (exit 2), never `interrupted`."""
    root = _project(tmp_path / "proj")
    result = run_cli("run", "--workspace", str(root), "--test-command", PROJECT_TESTS,
                     "--thread-id", "nomodel", "--json", env=cli_env())
    assert result.returncode == 2, result.stderr
    assert '"status": "needs_model"' in result.stdout and "--model openai:" in result.stdout
    threads = run_cli("threads", "--json")
    assert '"status": "needs_model"' in threads.stdout and "interrupted" not in threads.stdout


@pytest.mark.skipif(bool(degraded_reason()), reason=f"no private root here: {degraded_reason()}")
def test_a_shell_wrapped_interpreter_the_private_root_hides_is_named_with_the_flag_that_shows_it(
        agent, settings, tmp_path, bare_python):
    """The new-user run on humanize: `--test-command "sh -c 'sleep 6; /tmp/venv/bin/python -m pytest'"` ended
    `sh: 1: /tmp/venv/bin/python: not found. Install 'sh' or change --test-command`: sh is there; the
    interpreter, outside the project and the test environment, is hidden by the step's private root."""
    task = workspace_task(_project(tmp_path / "proj"), f"sh -c '{bare_python} -m pytest -q tests'", settings,
                          "sh-hidden")
    final = start_session(agent, task)
    _assert_ended_at_observe(final, "command_not_found")
    assert f"{bare_python!r}, which the test command starts, is not visible to the test step" in final["reason"]
    assert "--python PATH" in final["reason"] and "Install 'sh'" not in final["reason"], final["reason"]

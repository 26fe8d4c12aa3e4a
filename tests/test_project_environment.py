"""Issue #22 (A): a --workspace project's tests run in the project's environment (the invoking shell's
PATH and VIRTUAL_ENV, or ``python``/a workspace .venv), never on the tool's own interpreter by default;
a run that cannot even collect ends ``cannot_run`` naming the missing module, file and line, the
command and the interpreter. Real venvs, real subprocesses."""

import subprocess
import sys
from pathlib import Path

import pytest

from astra_memory.events import read_events
from astra_memory.session.run import start_session, workspace_task
from astra_memory.testrun.environment import cannot_run
from astra_memory.testrun.run import project_environment, run_tests
from tests.helpers import PROJECT_TESTS, make_venv

TOOL_BIN = str(Path(sys.executable).parent)
SYSTEM = "/usr/local/bin:/usr/bin:/bin"
TEST = ("import extdep_only_here\nfrom app.core import answer\n\n"
        "def test_answer():\n    assert answer() == extdep_only_here.ANSWER\n\n"
        "def test_other():\n    assert extdep_only_here.ANSWER == 42\n")


@pytest.fixture(scope="module")
def project_venv(tmp_path_factory) -> Path:
    """A venv with pytest (through a .pth to the tool's site-packages) and a module the tool lacks."""
    where = make_venv(tmp_path_factory.mktemp("projvenv") / "venv", tool_packages=True,
                      modules={"extdep_only_here": "ANSWER = 42\n"})
    python = where / "bin" / "python"
    assert subprocess.run([sys.executable, "-c", "import extdep_only_here"], capture_output=True).returncode != 0
    assert subprocess.run([python, "-c", "import extdep_only_here, pytest"], capture_output=True).returncode == 0
    return where


def _project(root: Path) -> Path:
    (root / "app").mkdir(parents=True)
    (root / "app" / "__init__.py").write_text("")
    (root / "app" / "core.py").write_text("def answer():\n    return 41\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_core.py").write_text(TEST)
    return root


def _reached_memory_search(final: dict) -> None:
    assert final["status"] != "cannot_run", final.get("reason")
    kinds = [e["event"] for e in read_events(final["task"]["run_dir"])]
    assert "memory_search" in kinds
    observe = final["test_runs"][0]
    assert observe["tests"] == {"tests/test_core.py::test_answer": "failed", "tests/test_core.py::test_other": "passed"}
    assert final["failure"]["failing_ids"] == ["tests/test_core.py::test_answer"]


def test_the_invoking_shells_virtualenv_runs_the_tests(agent, settings, tmp_path, project_venv):
    environ = {"PATH": f"{project_venv}/bin:{SYSTEM}", "VIRTUAL_ENV": str(project_venv), "API_TOKEN": "s3cret"}
    task = workspace_task(_project(tmp_path / "proj"), PROJECT_TESTS, settings,
                          "shell-venv", environ=environ)
    assert task["test_env"] == {"PATH": environ["PATH"], "VIRTUAL_ENV": str(project_venv)}  # nothing else
    assert TOOL_BIN not in task["test_env"]["PATH"] and task.get("python") is None
    _reached_memory_search(start_session(agent, task))


def test_the_tools_path_cannot_run_and_names_the_missing_module(agent, settings, tmp_path):
    task = workspace_task(_project(tmp_path / "proj"), PROJECT_TESTS, settings,
                          "tool-path", environ={"PATH": f"{TOOL_BIN}:{SYSTEM}"})
    final = start_session(agent, task)
    assert final["status"] == "cannot_run", final.get("reason")
    reason = final["reason"]
    assert "(missing_module)" in reason and "'extdep_only_here' (tests/test_core.py:1)" in reason
    assert f"`{PROJECT_TESTS}`" in reason and "--python" in reason
    assert f"on {TOOL_BIN}/python" in reason  # the interpreter that ran
    kinds = [e["event"] for e in read_events(final["task"]["run_dir"])]
    assert "memory_search" not in kinds and "replay" not in kinds and not final.get("messages")


def test_python_given_runs_the_tests_on_it(agent, settings, tmp_path, project_venv):
    task = workspace_task(_project(tmp_path / "proj"), PROJECT_TESTS, settings,
                          "given-python", environ={"PATH": f"{TOOL_BIN}:{SYSTEM}"},
                          python=str(project_venv / "bin" / "python"))
    assert task["test_env"]["PATH"].startswith(f"{project_venv}/bin:")
    assert task["test_env"]["VIRTUAL_ENV"] == str(project_venv)
    final = start_session(agent, task)
    _reached_memory_search(final)
    prepare = [e for e in read_events(final["task"]["run_dir"]) if e["event"] == "prepare"][0]
    assert str(project_venv / "bin" / "python") in prepare["interpreter"] and "given" in prepare["interpreter"]


def test_a_workspace_venv_is_used_when_no_virtualenv_is_active(tmp_path, project_venv):
    root = _project(tmp_path / "proj")
    (root / ".venv").symlink_to(project_venv, target_is_directory=True)
    env, python, why = project_environment(root, None, {"PATH": SYSTEM})
    assert python == str(root / ".venv" / "bin" / "python") and ".venv" in why
    assert env["PATH"].startswith(f"{root}/.venv/bin:")
    run = run_tests(root, PROJECT_TESTS, env=env)
    assert run.tests["tests/test_core.py::test_other"] == "passed"  # the plugin loaded under that interpreter
    # an active virtualenv wins over the workspace's .venv
    env, python, _ = project_environment(root, None, {"PATH": SYSTEM, "VIRTUAL_ENV": "/somewhere"})
    assert python is None and env == {"PATH": SYSTEM, "VIRTUAL_ENV": "/somewhere"}


def test_the_project_itself_not_installed_is_cannot_run(tmp_path):
    """humanize's case: a src/ layout the interpreter does not have installed."""
    root = tmp_path / "proj"
    (root / "src" / "humanizer").mkdir(parents=True)
    (root / "src" / "humanizer" / "__init__.py").write_text("")
    (root / "tests").mkdir()
    (root / "tests" / "test_h.py").write_text("import humanizer\n\ndef test_h():\n    pass\n")
    run = run_tests(root, PROJECT_TESTS)
    assert run.exit_code == 2
    why = cannot_run(run, root, "/x/python")
    assert why is not None and why.kind == "missing_module" and "pip install -e ." in why.message
    assert "'humanizer' (tests/test_h.py:1)" in why.message and "on /x/python" in why.message


def test_a_broken_conftest_cannot_run_with_file_and_line(tmp_path):
    root = tmp_path / "proj"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "conftest.py").write_text("def f(:\n    pass\n")
    (root / "tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    run = run_tests(root, PROJECT_TESTS)
    why = cannot_run(run, root)
    assert why is not None and why.kind == "conftest_error", run.output
    assert "SyntaxError" in why.message and "conftest.py:1" in why.message


def test_the_cli_python_option_runs_the_tests_on_it_and_refuses_a_missing_one(tmp_path, project_venv):
    """`run --workspace ... --python PATH` from a shell with no virtualenv active."""
    import json

    from tests.conftest import cli_env, run_cli

    root = _project(tmp_path / "proj")
    command = PROJECT_TESTS
    missing = run_cli("run", "--workspace", str(root), "--test-command", command, "--python",
                      str(tmp_path / "no-such-python"), "--no-approve-edits", env=cli_env())
    assert missing.returncode == 2 and "no-such-python" in missing.stderr and "Traceback" not in missing.stderr
    ran = run_cli("run", "--workspace", str(root), "--test-command", command, "--python",
                  str(project_venv / "bin" / "python"), "--no-approve-edits", "--json",
                  env=cli_env(PATH=f"{TOOL_BIN}:{SYSTEM}"))
    summary = json.loads(ran.stdout)
    assert summary["status"] == "needs_model", ran.stderr[-2000:]  # the tests ran and failed: not cannot_run

"""Damaged data files and bad input: a clear message, a non-zero exit, and nothing written over."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import cli_env, run_cli


def _damage(path, how: str) -> bytes:
    if how == "not-sqlite":
        path.write_bytes(b"this is a text file, not a database\n" * 10)
    else:  # truncated: a real database cut short
        data = path.read_bytes()
        path.write_bytes(data[: max(len(data) // 3, 200)])
    return path.read_bytes()


@pytest.fixture(scope="module")
def populated_template(tmp_path_factory):
    home = tmp_path_factory.mktemp("populated") / "astra-home"
    env = cli_env(ASTRA_HOME=str(home), ASTRA_EMBEDDINGS="hash")
    assert run_cli("run", "alpha", "--thread-id", "keep-1", env=env).returncode == 0
    return home  # the process has exited: its WAL is checkpointed into the main files


@pytest.fixture
def populated_home(isolated_home, populated_template):
    shutil.copytree(populated_template, isolated_home)
    return isolated_home


@pytest.mark.parametrize("how", ["not-sqlite", "truncated"])
@pytest.mark.parametrize("name, command", [
    ("memory.sqlite", ("memory", "list")),
    ("checkpoints.sqlite", ("threads",)),
    ("checkpoints.sqlite", ("resume", "keep-1")),
    ("memory.sqlite", ("run", "beta")),
])
def test_damaged_files_are_reported_not_overwritten(populated_home, how, name, command):
    path = populated_home / name
    damaged = _damage(path, how)
    result = run_cli(*command, env=cli_env())
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert str(path) in result.stderr or name in result.stderr
    assert path.read_bytes() == damaged


def test_nonexistent_test_command_is_a_clear_failure(tmp_path):
    project = tmp_path / "proj"
    (project / "tests").mkdir(parents=True)
    result = run_cli("run", "--workspace", str(project), "--test-command", "no-such-runner -q")
    assert result.returncode == 2  # refused before the session starts (preflight): no thread is left behind
    assert "'no-such-runner' is not found on the test PATH" in result.stderr


def test_scenario_folder_without_tests_is_a_clear_error(tmp_path):
    scenario = tmp_path / "broken"
    (scenario / "project" / "app").mkdir(parents=True)
    (scenario / "scenario.toml").write_text('name="b"\nfamily="f"\nprompt="p"\ntest_command="python -m pytest"\n')
    result = run_cli("run", str(scenario))
    assert result.returncode == 2 and "has no tests" in result.stderr

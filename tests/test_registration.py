"""A thread `run` accepted is known from the first moment: killed before its first checkpoint, it
is listed, cannot be started twice, and `resume` runs it from the beginning."""

from __future__ import annotations

import json
import signal

from astra_memory.session.hints import program
from tests.conftest import cli_env, run_cli


def test_killed_before_the_first_checkpoint(isolated_home):
    killed = run_cli("run", "alpha", "--thread-id", "early-1", env=cli_env(ASTRA_CRASH_AT="session:registered"))
    assert killed.returncode == -signal.SIGKILL
    (listed,) = json.loads(run_cli("threads", "--json").stdout)
    assert (listed["thread_id"], listed["status"], listed["next"]) == ("early-1", "not started", ["observe"])
    again = run_cli("run", "alpha", "--thread-id", "early-1")
    assert again.returncode == 2 and f"already exists; use `{program()} resume early-1`" in again.stderr
    resumed = run_cli("resume", "early-1", "--json")
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["status"] == "fixed" and summary["resumed"] is True and summary["stored_memory_id"]


def test_a_copy_left_by_a_kill_during_the_copy_is_cleared(isolated_home):
    leftover = isolated_home / "runs" / "copy-1" / "workspace" / "app"
    leftover.mkdir(parents=True)  # what a kill inside the copy leaves: a partial tree, nothing registered
    (leftover / "half.py").write_text("# half copied\n")
    result = run_cli("run", "alpha", "--thread-id", "copy-1", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["status"] == "fixed"
    assert not (leftover / "half.py").exists()

"""A session killed with SIGKILL mid-run resumes by thread id and finishes with nothing lost or doubled."""

import json
import signal

import pytest

from astra_memory.scenarios import load_scenario
from tests.conftest import cli_env, run_cli

FIXED_LINE = '    return [origin.strip() for origin in raw.split(",") if origin.strip()]'


@pytest.mark.slow
# inside:put:#3: prepare's checkpoint half written, so the last one is the input (no version stamp yet).
@pytest.mark.parametrize("point", ["edit:applied", "store:written", "test:running", "inside:put:#3",
                                   "inside:writes:#2", "inside:put:#9"])
def test_killed_session_resumes_to_fixed_with_one_record(isolated_home, point):
    crashed = run_cli("run", "alpha", "--thread-id", "crash-1", env=cli_env(ASTRA_CRASH_AT=point))
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr

    threads = json.loads(run_cli("threads", "--json").stdout)
    assert [t["status"] for t in threads if t["thread_id"] == "crash-1"] == ["interrupted"]

    resumed = run_cli("resume", "crash-1", "--json")
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["status"] == "fixed" and summary["resumed"] is True

    listing = json.loads(run_cli("memory", "list", "--json").stdout)
    assert [r["memory_id"] for r in listing] == [summary["stored_memory_id"]]
    source = (isolated_home / "runs" / "crash-1" / "workspace" / "app" / "settings.py").read_text()
    template = (load_scenario("alpha").template / "app" / "settings.py").read_text()
    assert source.count(FIXED_LINE) == 1 and source == template.replace(
        '    return [origin for origin in raw.split(",") if origin]', FIXED_LINE)
    assert len(summary["edits"]) == 1


def test_resume_of_an_unknown_thread_fails_clearly():
    result = run_cli("resume", "no-such-thread")
    assert result.returncode == 2 and "no session with thread id" in result.stderr


def test_resume_of_a_finished_thread_says_so():
    assert run_cli("run", "alpha", "--thread-id", "done-1").returncode == 0
    again = run_cli("resume", "done-1")
    assert again.returncode == 0 and "already finished" in again.stderr

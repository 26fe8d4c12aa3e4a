"""Issue #25 part 3, seed 003's abort rule: an unexpected exception inside a tool (a bug of ours, not the
model's bad input) ends the session with status `error` in one line, the pending decision kept, and
`resume` after the fault is gone retries it and finishes `fixed`; only the expected refusals become
observations. And the response-size bound on every HTTP response from the model server."""

from __future__ import annotations

import errno
import json

import pytest
from typer.testing import CliRunner

from astra_memory.cli.app import app
from astra_memory.errors import AstraError, MemoryGateError
from astra_memory.models.live import MAX_RESPONSE_BYTES
from astra_memory.scenarios import load_scenario
from astra_memory.session.hints import program
from astra_memory.session.run import open_agent
from astra_memory.tools.guard import call_guarded
from tests.conftest import cli_env, run_cli
from tests.openai_server import DEFAULT_KEY, OpenAIServer, script_from_solution, text

THREAD = "abort-1"


def _raise(exc: BaseException):
    def run():
        raise exc
    return run


def test_only_the_expected_refusals_become_observations():
    assert call_guarded(_raise(AstraError("outside the workspace"))) == (None, "error: outside the workspace")
    assert call_guarded(_raise(OSError(errno.ENOENT, "No such file"))) == (None, "error: FileNotFoundError: [Errno 2] No such file")
    assert call_guarded(_raise(UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad")))[1].startswith(
        "error: UnicodeDecodeError")
    for bug in (KeyError("k"), TypeError("t"), AttributeError("a"), ZeroDivisionError("z")):
        with pytest.raises(type(bug)):
            call_guarded(_raise(bug))
    with pytest.raises(MemoryGateError):
        call_guarded(_raise(MemoryGateError("gate")))


def test_an_internal_error_in_a_tool_ends_error_keeps_the_decision_and_resume_finishes(settings):
    env = cli_env()
    faulty = run_cli("run", "alpha", "--no-replay", "--thread-id", THREAD, env={**env, "ASTRA_TOOL_FAULT": "1"})
    assert faulty.returncode == 1, faulty.stderr
    assert "Traceback" not in faulty.stderr
    line = [ln for ln in faulty.stderr.splitlines() if "status error" in ln]
    assert line == [f"error: session {THREAD} stopped with status error in tools (InjectedFault: injected by "
                    f"ASTRA_TOOL_FAULT=1); its pending step is kept: remove the cause, then `{program()} resume "
                    f"{THREAD}` retries it"]

    listed = {r["thread_id"]: r for r in json.loads(run_cli("threads", "--json", env=env).stdout)}
    assert listed[THREAD]["status"] == "error" and listed[THREAD]["next"] == ["tools"]  # the decision is kept

    resumed = run_cli("resume", THREAD, "--json", env=env)  # the fault is gone
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["status"] == "fixed"
    # The model was not asked again: one request per step of the script, as in a run without the fault.
    assert summary["model_requests"] == len(load_scenario("alpha").solution)


def test_an_oversized_response_is_refused_before_it_is_parsed(settings, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", DEFAULT_KEY)
    alpha = script_from_solution(load_scenario("alpha").solution)
    huge = text("x" * (MAX_RESPONSE_BYTES + 1024))
    with OpenAIServer([alpha[0], huge, *alpha[1:]]) as server:
        result = CliRunner().invoke(app, ["run", "alpha", "--model", "openai:gpt-4.1-mini", "--base-url",
                                          server.base_url, "--approve-live-cost", "--budget", "0.05", "--no-replay",
                                          "--thread-id", "too-big", "--json"])
    assert result.exit_code == 1, result.output
    summary = json.loads(result.stdout)
    assert summary["status"] == "failed" and summary["reason"].startswith(
        f"the model server's response was larger than {MAX_RESPONSE_BYTES} bytes (Content-Length ")
    assert "refused before it was parsed" in summary["reason"]
    assert len(server.model_requests()) == 2  # refused once, not retried
    with open_agent(settings) as agent:
        last = agent.ledger.requests("too-big")[-1]
    assert last["cost_usd"] == pytest.approx(last["reserved_usd"])  # counted at its worst case

"""A live request the ledger reserved and no checkpoint saw (the process was killed while the server
held it) counts against the request limit before the next request is sent. On main the state's
counters caught up with the ledger only after a reply came back, so each kill in flight was one more
request past --max-model-requests (outside round 9 case 05: 8 requests reached the server against a
limit of 4 after five kills). Real CLI process killed at the request, real local server, real ledger."""

from __future__ import annotations

import json
import signal

import pytest
from typer.testing import CliRunner

from astra_memory.cli.app import app
from astra_memory.costs.ledger import ledger_path_for, open_sqlite_ledger
from astra_memory.scenarios import load_scenario
from tests.conftest import cli_env, run_cli
from tests.openai_server import DEFAULT_KEY, OpenAIServer, script_from_solution

pytestmark = pytest.mark.live_wire

MODEL = "openai:gpt-4.1-mini"
ALPHA = script_from_solution(load_scenario("alpha").solution)


def test_a_request_lost_in_a_kill_is_counted_before_the_next_is_sent(settings, monkeypatch):
    env = cli_env(OPENAI_API_KEY=DEFAULT_KEY, ASTRA_CRASH_AT="model:request")
    with OpenAIServer(ALPHA) as server:
        crashed = run_cli("run", "alpha", "--model", MODEL, "--base-url", server.base_url, "--approve-live-cost",
                          "--budget", "0.05", "--max-model-requests", "1", "--thread-id", "lost-1", env=env,
                          timeout=120)
        assert crashed.returncode == -signal.SIGKILL, crashed.stderr
        assert len(server.model_requests()) == 1  # the one request allowed reached the server
        monkeypatch.setenv("OPENAI_API_KEY", DEFAULT_KEY)
        monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
        resumed = CliRunner().invoke(app, ["resume", "lost-1", "--approve-live-cost", "--json"])
        sent = len(server.model_requests())
    summary = json.loads(resumed.stdout)
    assert sent == 1, "the resumed session sent a request past --max-model-requests 1"
    assert summary["status"] == "budget_exhausted"
    assert "model request limit reached (1 of 1)" in summary["reason"]
    assert summary["model_requests"] == 1
    with open_sqlite_ledger(ledger_path_for(settings.checkpoint_path)) as ledger:
        assert [r["state"] for r in ledger.requests("lost-1")] == ["reserved"]

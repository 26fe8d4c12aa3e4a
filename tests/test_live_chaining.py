"""Responses API chaining (previous_response_id) and the model settings on the wire, through the real
langchain-openai client against the local OpenAI-compatible server (tests/openai_server.py)."""

from __future__ import annotations

import dataclasses
import json
import signal

import pytest
from typer.testing import CliRunner

from astra_memory.cli.app import app
from astra_memory.context import Context
from astra_memory.costs.prices import Price, price_for
from astra_memory.errors import ConfigurationError
from astra_memory.models.live import preflight
from tests.conftest import cli_env, run_cli
from tests.openai_server import DEFAULT_KEY, OpenAIServer
from tests.test_live_wire import ALPHA, MODEL, run_alpha

pytestmark = pytest.mark.live_wire


@pytest.fixture(autouse=True)
def api_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", DEFAULT_KEY)


def _sent(server) -> list[dict]:
    return [r["body"] for r in server.model_requests()]


def test_a_chained_session_sends_only_the_new_items_each_turn(settings):
    with OpenAIServer(ALPHA) as chained_server:
        chained, _, _ = run_alpha(settings, chained_server, "chained", use_responses_api=True)
    # Its own memory: the chained session's stored fix must not lengthen the other's prompt (billed tokens compared).
    apart = dataclasses.replace(settings, home=settings.home.parent / "unchained-home")
    with OpenAIServer(ALPHA) as plain_server:
        plain, _, _ = run_alpha(apart, plain_server, "unchained", use_responses_api=True, chain_responses=False)
    assert chained["status"] == plain["status"] == "fixed"
    assert chained_server.violations == [] and plain_server.violations == []
    c, p = _sent(chained_server), _sent(plain_server)
    # A new chain per session: the first turn has no previous id; each later one names the last response.
    assert "previous_response_id" not in c[0] and all("previous_response_id" not in b for b in p)
    ids = [f"resp_call_{n:04d}" for n in (1, 2, 3)]
    assert [b.get("previous_response_id") for b in c[1:]] == ids
    # Only the new items: the tool result of the call just made (the system prompt and brief went once).
    assert [[i.get("type") for i in b["input"]] for b in c[1:]] == [["function_call_output"]] * 3
    assert [len(b["input"]) for b in p] == [2, 4, 6, 8]
    sent = lambda server: sum(len(r["raw"]) for r in server.model_requests())  # noqa: E731
    assert sent(chained_server) < 0.6 * sent(plain_server)
    # What is billed is not what is sent: the server reads the chained context as input too.
    assert chained["budget"]["input_tokens"] == pytest.approx(plain["budget"]["input_tokens"], rel=0.1)


def test_when_the_server_forgot_the_chain_the_full_history_starts_a_new_one(settings):
    with OpenAIServer(ALPHA, forget_after=1) as server:
        final, _, rows = run_alpha(settings, server, "forgotten", use_responses_api=True)
    assert final["status"] == "fixed" and server.violations == []
    bodies = _sent(server)
    assert server.unknown_previous_ids == ["resp_call_0001"]
    assert bodies[1]["previous_response_id"] == "resp_call_0001"  # refused: 400 previous_response_not_found
    assert "previous_response_id" not in bodies[2] and len(bodies[2]["input"]) == 4  # the full history, anew
    assert bodies[3]["previous_response_id"] == "resp_call_0002"  # and the new chain goes on
    assert [r["state"] for r in rows] == ["settled", "failed", "settled", "settled", "settled"]
    assert rows[1]["cost_usd"] == 0


@pytest.mark.slow
def test_a_session_resumed_after_a_crash_continues_its_chain(settings, monkeypatch):
    env = cli_env(OPENAI_API_KEY=DEFAULT_KEY, ASTRA_CRASH_AT="after:tools")
    with OpenAIServer(ALPHA) as server:
        crashed = run_cli("run", "alpha", "--model", MODEL, "--base-url", server.base_url, "--approve-live-cost",
                          "--responses-api", "--thread-id", "chain-crash", env=env, timeout=120)
        assert crashed.returncode == -signal.SIGKILL, crashed.stderr
        assert len(server.model_requests()) == 1
        monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
        resumed = CliRunner().invoke(app, ["resume", "chain-crash", "--approve-live-cost", "--json"])
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout)["status"] == "fixed" and server.violations == []
    bodies = _sent(server)
    assert [b.get("previous_response_id") for b in bodies] == [None, "resp_call_0001", "resp_call_0002",
                                                              "resp_call_0003"]
    assert [len(b["input"]) for b in bodies[1:]] == [1, 1, 1]


def test_reasoning_effort_verbosity_and_service_tier_go_on_the_wire_and_are_recorded(settings):
    knobs = {"reasoning_effort": "low", "verbosity": "low", "service_tier": "flex"}
    with OpenAIServer(ALPHA) as server:
        final, task, _ = run_alpha(settings, server, "settings", model="openai:gpt-5-mini", use_responses_api=True,
                                   **knobs)
    assert final["status"] == "fixed" and server.violations == []
    for body in _sent(server):
        assert body["reasoning"] == {"effort": "low"} and body["text"]["verbosity"] == "low"
        assert body["service_tier"] == "flex"
    assert {k: final["task"]["knobs"][k] for k in knobs} == knobs  # resume runs under the same settings
    # flex is half the standard price of gpt-5-mini: the session's cost says so.
    tokens_in, tokens_out = final["budget"]["input_tokens"], final["budget"]["output_tokens"]
    assert final["budget"]["cost_usd"] == pytest.approx(Price(0.125, 1.00).cost(tokens_in, tokens_out), rel=1e-6)


def test_the_chat_completions_wire_carries_the_settings_too(settings):
    with OpenAIServer(ALPHA) as server:
        final, _, _ = run_alpha(settings, server, "chat-settings", model="openai:gpt-5-mini", use_responses_api=False,
                                reasoning_effort="minimal", verbosity="medium", service_tier="priority")
    assert final["status"] == "fixed"
    body = _sent(server)[0]
    assert (body["reasoning_effort"], body["verbosity"], body["service_tier"]) == ("minimal", "medium", "priority")


def test_tier_prices_and_bad_values():
    assert price_for("gpt-5-mini", service_tier="flex") == Price(0.125, 1.00)
    assert price_for("gpt-5-mini-2025-08-07", service_tier="flex") == Price(0.125, 1.00)
    assert price_for("gpt-4.1-mini", service_tier="flex") == Price(0.40, 1.60)  # no flex: never under-count
    assert price_for("gpt-5", service_tier="priority") == Price(2.50, 20.00)
    assert price_for("gpt-4.1-mini", service_tier="default") == price_for("gpt-4.1-mini")
    with pytest.raises(ConfigurationError, match="priority-tier price"):
        price_for("gpt-5-nano", service_tier="priority")
    assert price_for("gpt-5-nano", price_in=0.1, price_out=0.8, service_tier="priority") == Price(0.1, 0.8)
    for bad in ({"reasoning_effort": "max"}, {"verbosity": "loud"}, {"service_tier": "cheap"}):
        with pytest.raises(ConfigurationError, match="must be one of"):
            preflight("openai:gpt-5-mini", Context(approve_live_cost=True, **bad))

"""Whole sessions through the real langchain-openai / openai client against a local OpenAI-compatible
server (tests/openai_server.py): both wire formats, untrusted tool calls, transport faults, the cost
guard's limits, and a process killed during a request. No network: the server is on 127.0.0.1."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest
from langchain_core.messages import ToolMessage
from typer.testing import CliRunner

from astra_memory.cli.app import app, cost_line
from astra_memory.context import Context
from astra_memory.costs.ledger import ledger_path_for, open_sqlite_ledger
from astra_memory.models.transcript import read_transcript
from astra_memory.scenarios import load_scenario
from astra_memory.session.run import (
    open_agent,
    open_memory,
    scenario_task,
    start_session,
)
from tests.conftest import BACKENDS, cli_env, run_cli
from tests.openai_server import (
    DEFAULT_KEY,
    OpenAIServer,
    http_error,
    script_from_solution,
    tool_call,
)

pytestmark = pytest.mark.live_wire

MODEL = "openai:gpt-4.1-mini"
ALPHA = script_from_solution(load_scenario("alpha").solution)  # read_file, state_diagnosis, apply_edit, finish


@pytest.fixture
def api_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", DEFAULT_KEY)
    return DEFAULT_KEY


def run_alpha(settings, server, thread_id: str, **knobs):
    """One alpha session in-process through session.start_session, fast transport knobs for tests."""
    knobs = {"model": MODEL, "base_url": server.base_url, "approve_live_cost": True, "session_budget_usd": 0.05,
             "max_retries": 2, "request_timeout_s": 10.0,
             "replay": False, **knobs}  # the wire is under test: a fix already in memory must not be replayed
    with open_agent(settings) as agent:
        task = scenario_task(load_scenario("alpha"), settings, thread_id, model=knobs["model"])
        final = start_session(agent, task, context=Context(**knobs))
        requests = agent.ledger.requests(thread_id)
    return final, task, requests


def files_containing(root: Path, needle: str) -> list[str]:
    return [str(p) for p in root.rglob("*") if p.is_file() and needle.encode() in p.read_bytes()]


def test_alpha_is_fixed_through_the_cli_over_chat_completions(settings, isolated_home, api_key):
    runner = CliRunner()
    with OpenAIServer(ALPHA) as server:
        result = runner.invoke(app, ["run", "alpha", "--model", MODEL, "--base-url", server.base_url,
                                     "--approve-live-cost", "--budget", "0.05", "--thread-id", "live-1", "--json",
                                     "--chat-completions"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["status"] == "fixed" and summary["model"] == MODEL and summary["model_requests"] == 4

    # What the server saw: the key check (GET /models), then four strict, well-formed model requests.
    assert server.violations == []
    assert [(r["method"], r["path"]) for r in server.requests] == [("GET", "/v1/models")] + [
        ("POST", "/v1/chat/completions")] * 4
    posts = server.model_requests()
    for request in posts:
        assert request["headers"]["authorization"] == f"Bearer {api_key}"
        assert api_key.encode() not in request["raw"]
        body = request["body"]
        assert body["model"] == "gpt-4.1-mini" and body["parallel_tool_calls"] is False
        assert body["max_completion_tokens"] == 4096
        assert {t["function"]["name"] for t in body["tools"]} == {
            "list_files", "read_file", "search_code", "search_codebase_memory", "state_diagnosis", "apply_edit", "finish"}
        for tool in body["tools"]:
            assert tool["function"]["strict"] is True
            assert tool["function"]["parameters"]["additionalProperties"] is False
    last = posts[-1]["body"]["messages"]
    assert [m["tool_call_id"] for m in last if m["role"] == "tool"] == server.issued_call_ids[:3]
    assert [c["id"] for m in last if m["role"] == "assistant" for c in m["tool_calls"]] == server.issued_call_ids[:3]
    assert "applied to app/settings.py" in [m for m in last if m["role"] == "tool"][-1]["content"]

    # The stored memory, the ledger, the transcript.
    with open_memory(settings) as memory:
        record = memory.get(summary["stored_memory_id"])
    assert record is not None and record.model == MODEL and record.outcome == summary["passed_outcome"]
    with open_sqlite_ledger(ledger_path_for(settings.checkpoint_path)) as ledger:
        rows = ledger.requests("live-1")
        usage = ledger.session("live-1")
    assert [r["state"] for r in rows] == ["settled"] * 4 and usage.limit_usd == 0.05
    expected = sum((r["input_tokens"] * 0.40 + r["output_tokens"] * 1.60) / 1e6 for r in rows)
    assert usage.spent_usd == pytest.approx(expected) and summary["cost_usd"] == pytest.approx(expected, abs=1e-6)
    assert all(r["reserved_usd"] >= r["cost_usd"] for r in rows)  # the reservation bounded the real cost
    transcript = read_transcript(isolated_home / "runs" / "live-1")
    assert [e["kind"] for e in transcript] == ["request", "response"] * 4
    assert transcript[0]["messages"][0]["role"] == "system" and transcript[1]["tool_calls"][0]["name"] == "read_file"
    assert transcript[5]["usage"]["input_tokens"] > 0 and transcript[2]["messages"][0]["role"] == "tool"
    # The key is nowhere under ASTRA_HOME: not in logs, transcripts, evidence, checkpoints or memory.
    assert files_containing(isolated_home, api_key) == []

    cost = runner.invoke(app, ["cost", "--json"])
    ledger_view = json.loads(cost.stdout)
    assert [s["thread_id"] for s in ledger_view["sessions"]] == ["live-1"]
    assert ledger_view["total"]["requests"] == 4 and ledger_view["total"]["spent_usd"] == pytest.approx(expected)


def test_alpha_is_fixed_over_the_responses_api(settings, api_key):
    with OpenAIServer(ALPHA) as server:
        final, _, rows = run_alpha(settings, server, "live-responses", use_responses_api=True, chain_responses=False)
    assert final["status"] == "fixed" and final["stored_memory_id"]
    assert server.violations == []
    posts = server.model_requests()
    assert [r["path"] for r in posts] == ["/v1/responses"] * 4
    for request in posts:
        body = request["body"]
        assert body["max_output_tokens"] == 4096 and body["parallel_tool_calls"] is False
        assert all(t["strict"] is True and t["parameters"]["additionalProperties"] is False for t in body["tools"])
    items = posts[-1]["body"]["input"]
    assert [i["call_id"] for i in items if i.get("type") == "function_call_output"] == server.issued_call_ids[:3]
    assert [r["state"] for r in rows] == ["settled"] * 4


def test_an_ollama_style_model_needs_a_price_and_runs_at_zero(settings, isolated_home, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "ollama")  # local servers accept any key
    runner = CliRunner()
    with OpenAIServer(ALPHA, api_key="ollama") as server:
        refused = runner.invoke(app, ["run", "alpha", "--model", "openai:llama3.1", "--base-url", server.base_url,
                                      "--approve-live-cost"])
        assert refused.exit_code == 2 and "--price-in and --price-out" in refused.stderr
        assert server.requests == [] and not (isolated_home / "runs").exists()
        result = runner.invoke(app, ["run", "alpha", "--model", "openai:llama3.1", "--base-url", server.base_url,
                                     "--approve-live-cost", "--price-in", "0", "--price-out", "0", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["status"] == "fixed" and summary["cost_usd"] == 0 and summary["input_tokens"] > 0
    assert server.violations == []


@pytest.mark.slow
def test_a_session_killed_before_its_first_request_resumes_with_its_own_server_prices_and_budget(
        settings, isolated_home, monkeypatch):
    # Nothing is in the ledger yet when the process dies; the session's task holds what it started with.
    env = cli_env(OPENAI_API_KEY="ollama", ASTRA_CRASH_AT="after:memory_search")
    with OpenAIServer(ALPHA, api_key="ollama") as server:
        crashed = run_cli("run", "alpha", "--model", "openai:llama3.1", "--base-url", server.base_url,
                          "--approve-live-cost", "--price-in", "0", "--price-out", "0", "--budget", "0.07",
                          "--responses-api", "--thread-id", "live-early", env=env, timeout=120)
        assert crashed.returncode == -signal.SIGKILL, crashed.stderr
        assert server.model_requests() == []
        monkeypatch.setenv("OPENAI_API_KEY", "ollama")
        monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
        resumed = CliRunner().invoke(app, ["resume", "live-early", "--approve-live-cost", "--json"])
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout)["status"] == "fixed"
    assert [r["path"] for r in server.model_requests()] == ["/v1/responses"] * 4  # the wire API it started with
    with open_sqlite_ledger(ledger_path_for(settings.checkpoint_path)) as ledger:
        assert ledger.session_limit("live-early") == 0.07  # the budget it started with, not the default


def test_live_runs_refuse_to_start_without_approval_or_key(isolated_home, monkeypatch):
    runner = CliRunner()
    with OpenAIServer(ALPHA) as server:
        args = ["run", "alpha", "--model", MODEL, "--base-url", server.base_url]
        no_key = runner.invoke(app, [*args, "--approve-live-cost"])
        assert no_key.exit_code == 2 and "OPENAI_API_KEY is not set" in no_key.stderr
        monkeypatch.setenv("OPENAI_API_KEY", DEFAULT_KEY)
        unapproved = runner.invoke(app, args)
        assert unapproved.exit_code == 2
        assert "costs money" in unapproved.stderr and "--approve-live-cost" in unapproved.stderr
        monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong-key-0000000000000000000000")
        rejected = runner.invoke(app, [*args, "--approve-live-cost"])
        assert rejected.exit_code == 2 and "rejected the API key (HTTP 401)" in rejected.stderr
        assert "sk-wrong-key-0000000000000000000000" not in rejected.output
    # Nothing was started: no model request, no run directory, no checkpoint.
    assert [(r["method"], r["path"]) for r in server.requests] == [("GET", "/v1/models")]
    assert not (isolated_home / "runs").exists() and not (isolated_home / "checkpoints.sqlite").exists()


def test_malformed_tool_calls_are_refused_and_the_run_fails(settings, api_key):
    script = [
        tool_call("delete_everything", {"path": "app"}),  # unknown tool
        tool_call("read_file", '{"path": "app/settings.py"'),  # arguments are not JSON
        tool_call("read_file", {"path": "app/settings.py", "mode": "rb"}),  # an extra key
        tool_call("search_codebase_memory", {"query": "x", "error_type": None, "top_k": "3"}),  # a wrong type
    ]
    with OpenAIServer(script) as server:
        final, task, rows = run_alpha(settings, server, "live-malformed", max_invalid_turns=4, use_responses_api=False)
    assert final["status"] == "failed" and "refused tool-call turns reached (4 of 4)" in final["reason"]
    assert "max_invalid_turns" in final["reason"]  # the reason names the setting that raises the limit
    assert final["edits"] == [] and final["invalid_turns"] == 4
    assert (Path(task["workspace"]) / "app/settings.py").read_text() == (
        load_scenario("alpha").template / "app/settings.py").read_text()
    assert server.violations == [] and len(server.model_requests()) == 4  # every refusal answered its call id
    observations = [m["content"] for m in server.model_requests()[-1]["body"]["messages"] if m["role"] == "tool"]
    assert "unknown tool 'delete_everything'" in observations[0]
    assert "not valid JSON" in observations[1]
    assert "mode: Extra inputs are not permitted" in observations[2]
    last = [m for m in final["messages"] if isinstance(m, ToolMessage)][-1]
    assert "top_k: Input should be a valid integer" in last.content and last.status == "error"
    assert [r["state"] for r in rows] == ["settled"] * 4


def test_a_500_then_success_completes(settings, api_key):
    # ... and the first answer reports no token usage (as some compatible servers do).
    with OpenAIServer(http_error(500) + [dict(ALPHA[0], usage="omit"), *ALPHA[1:]]) as server:
        final, _, rows = run_alpha(settings, server, "live-500")
    assert final["status"] == "fixed"
    posts = server.model_requests()
    assert len(posts) == 5 and posts[0]["raw"] == posts[1]["raw"]  # the client retried the same request
    assert len(rows) == 4 and final["budget"]["model_requests"] == 4  # one guarded request, retried inside
    assert rows[0]["cost_usd"] == rows[0]["reserved_usd"] and "no token usage" in rows[0]["note"]
    assert rows[1]["cost_usd"] < rows[1]["reserved_usd"]


def test_a_429_storm_ends_in_a_clear_failure_quickly(settings, api_key):
    started = time.monotonic()
    with OpenAIServer(http_error(429, times=20)) as server:
        final, task, rows = run_alpha(settings, server, "live-429", max_retries=2)
    elapsed = time.monotonic() - started
    assert final["status"] == "failed"
    assert "HTTP 429" in final["reason"] and "after 2 retries" in final["reason"]
    assert len(server.model_requests()) == 3  # the first try and exactly max_retries retries
    assert elapsed < 20
    assert [(r["state"], r["cost_usd"]) for r in rows] == [("failed", 0.0)]  # nothing billable came back
    errors = [e for e in read_transcript(task["run_dir"]) if e["kind"] == "error"]
    assert len(errors) == 1 and errors[0]["status_code"] == 429


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)  # the SQLite ledger and the PostgreSQL one
def test_the_budget_stops_the_run_before_the_request_that_would_exceed_it(settings, api_key):
    # Each request's worst case is 100k output tokens at $1/M = $0.10; each reply really costs $0.06.
    # Budget $0.26: 0 + 0.10, 0.06 + 0.10 and 0.12 + 0.10 fit, 0.18 + 0.10 does not -> stop before request 4.
    script = [dict(step, usage=(1000, 60_000)) for step in ALPHA]
    knobs = {"price_in_per_mtok": 0.0, "price_out_per_mtok": 1.0, "max_output_tokens": 100_000,
             "session_budget_usd": 0.26}
    with OpenAIServer(script) as server:
        final, _, rows = run_alpha(settings, server, "live-budget", **knobs)
    assert final["status"] == "budget_exhausted"
    assert "session budget $0.2600 would be exceeded" in final["reason"] and "--budget" in final["reason"]
    assert len(server.model_requests()) == 3 and final["edits"]  # the edit went through; finish was never asked
    assert [r["state"] for r in rows] == ["settled", "settled", "settled"]
    assert sum(r["cost_usd"] for r in rows) == pytest.approx(0.18) and final["budget"]["cost_usd"] == pytest.approx(0.18)
    assert final.get("stored_memory_id") is None


def test_the_total_budget_holds_across_sessions(settings, api_key):
    script = [dict(step, usage=(1000, 60_000)) for step in ALPHA]
    knobs = {"price_in_per_mtok": 0.0, "price_out_per_mtok": 1.0, "max_output_tokens": 100_000,
             "session_budget_usd": 1.0, "total_budget_usd": 0.15}
    with OpenAIServer(script) as server:
        first, _, _ = run_alpha(settings, server, "live-total-1", **knobs)
        asked = len(server.model_requests())
        second, _, rows = run_alpha(settings, server, "live-total-2", **knobs)
    assert asked == 1 and len(server.model_requests()) == 1  # the second session sent nothing
    assert first["status"] == second["status"] == "budget_exhausted"
    assert "total budget $0.1500 across all sessions" in second["reason"] and rows == []


@pytest.mark.slow
def test_a_request_killed_in_flight_stays_counted_after_resume(settings, isolated_home, monkeypatch):
    # The first reply is lost with the process; the resumed session asks again.
    script = [ALPHA[0], *ALPHA]
    env = cli_env(OPENAI_API_KEY=DEFAULT_KEY, ASTRA_CRASH_AT="model:request")
    with OpenAIServer(script) as server:
        crashed = run_cli("run", "alpha", "--model", MODEL, "--base-url", server.base_url, "--approve-live-cost",
                          "--budget", "0.05", "--thread-id", "live-crash", env=env, timeout=120)
        assert crashed.returncode == -signal.SIGKILL, crashed.stderr
        assert len(server.model_requests()) == 1  # the request reached the server (and could be billed)
        with open_sqlite_ledger(ledger_path_for(settings.checkpoint_path)) as ledger:
            [lost] = ledger.requests("live-crash")
            assert lost["state"] == "reserved" and ledger.session("live-crash").spent_usd == lost["reserved_usd"]

        monkeypatch.setenv("OPENAI_API_KEY", DEFAULT_KEY)  # the same command, in this process (faster)
        monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
        # No --base-url: the resume talks to the server the session started with (recorded in its task).
        resumed = CliRunner().invoke(app, ["resume", "live-crash", "--approve-live-cost", "--json"])
    assert resumed.exit_code == 0, resumed.output
    summary = json.loads(resumed.stdout)
    assert summary["status"] == "fixed" and summary["resumed"] is True
    assert server.violations == [] and len(server.model_requests()) == 5
    with open_sqlite_ledger(ledger_path_for(settings.checkpoint_path)) as ledger:
        rows = ledger.requests("live-crash")
        usage = ledger.session("live-crash")
        assert ledger.session_limit("live-crash") == 0.05  # resume kept the session's limit
    assert [r["state"] for r in rows] == ["reserved", "settled", "settled", "settled", "settled"]
    assert usage.open_reservations == 1
    assert usage.spent_usd == pytest.approx(lost["reserved_usd"] + sum(r["cost_usd"] for r in rows[1:]))
    # The checkpointed counters caught up with the ledger: the lost request is in them too.
    assert summary["model_requests"] == 5 and summary["cost_usd"] == pytest.approx(usage.spent_usd, abs=1e-6)
    # The cost line says how much of that is the cut-off request's worst case (issue 36 item 9).
    assert summary["open_requests"] == 1 and summary["open_usd"] == pytest.approx(lost["reserved_usd"], abs=1e-6)
    line = cost_line(summary["model"], summary["cost_usd"], summary["input_tokens"], summary["output_tokens"],
                     summary["open_requests"], summary["open_usd"])
    assert f"${lost['reserved_usd']:.4f} of it reserved for 1 request(s) cut off" in line
    printed = CliRunner().invoke(app, ["resume", "live-crash", "--approve-live-cost"])  # finished: prints its end
    assert "reserved for 1 request(s) cut off" in printed.stdout
    view = json.loads(CliRunner().invoke(app, ["cost", "--json", "--thread", "live-crash"]).stdout)
    assert [r["state"] for r in view["requests"]] == ["reserved", "settled", "settled", "settled", "settled"]
    assert view["total"]["open_reservations"] == 1 and view["total"]["spent_usd"] == pytest.approx(usage.spent_usd)
    assert "open: 1 request(s) whose outcome never reached the ledger" in CliRunner().invoke(app, ["cost"]).stdout
    assert files_containing(isolated_home, DEFAULT_KEY) == []


@pytest.mark.parametrize("usage", [(-1_000_000, -5_000), (10**12, 20)], ids=["negative", "absurd"])
def test_usage_that_cannot_be_true_is_counted_at_the_worst_case(settings, api_key, usage):
    """Issue 32 class 11: a server reporting negative token usage settled each request below $0 (the
    ledger went to -$63, widening a $5 budget to $68). Reported usage is a number from outside: a count
    that cannot be true is set aside, the request counted at its reservation, never below zero."""
    with OpenAIServer([dict(step, usage=usage) for step in ALPHA]) as server:
        final, _, rows = run_alpha(settings, server, "live-bad-usage")
    assert final["status"] == "fixed" and len(rows) == 4
    for row in rows:
        assert row["cost_usd"] == row["reserved_usd"] > 0 and "cannot be true" in row["note"]
        assert row["input_tokens"] >= 0 and row["output_tokens"] >= 0
    with open_sqlite_ledger(ledger_path_for(settings.checkpoint_path)) as ledger:
        spent = ledger.session("live-bad-usage").spent_usd
    assert spent == pytest.approx(sum(r["reserved_usd"] for r in rows)) and spent > 0

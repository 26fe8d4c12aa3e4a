"""The cost guard without a server: prices, the worst-case bound, the durable ledger and its limits."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from datetime import date

import pytest

from astra_memory.context import Context, recorded_knobs, session_context
from astra_memory.costs.ledger import (
    BudgetExceededError,
    CostLedger,
    SqliteCostLedger,
    ledger_path_for,
    open_sqlite_ledger,
)
from astra_memory.costs.prices import Price, input_token_bound, price_for
from astra_memory.errors import ConfigurationError
from astra_memory.models.live import LiveRequestError, live_turn, preflight
from astra_memory.models.transcript import redact_secrets
from astra_memory.nodes.investigate import ledger_catch_up
from tests.conftest import ROOT

LIMITS = {"session_limit": 1.0, "total_limit": 10.0}


@pytest.fixture(autouse=True)
def pinned_today(monkeypatch):
    """Prices are dated (shutdowns, the table's age): these tests run on the table's own date."""
    from astra_memory.costs import prices

    monkeypatch.setattr(prices, "current_date", lambda: date(2026, 12, 2))


@pytest.fixture
def ledger(tmp_path):
    with open_sqlite_ledger(tmp_path / "ledger.sqlite") as opened:
        yield opened


def test_prices_known_snapshot_override_and_unknown():
    assert price_for("gpt-4.1-mini") == Price(0.40, 1.60)
    assert price_for("gpt-4.1-mini-2025-04-14") == Price(0.40, 1.60)  # a dated snapshot has its own entry
    with pytest.raises(ConfigurationError, match="--price-in and --price-out"):
        price_for("gpt-4.1-mini-2099-01-01")  # an unknown snapshot is not priced as its base model (issue #25)
    assert price_for("gpt-4.1-mini", price_out=9.0) == Price(0.40, 9.0)
    assert price_for("llama3.1:8b", price_in=0, price_out=0) == Price(0, 0)
    with pytest.raises(ConfigurationError, match="--price-in and --price-out"):
        price_for("llama3.1:8b")
    with pytest.raises(ConfigurationError, match="--price-in and --price-out"):
        price_for("llama3.1:8b", price_in=0.1)  # half a price is no price
    with pytest.raises(ConfigurationError, match="finite number >= 0"):
        price_for("gpt-4.1", price_in=-1, price_out=1)
    assert Price(2.0, 8.0).cost(1_000_000, 500_000) == pytest.approx(6.0)


def test_prices_from_the_environment(monkeypatch):
    monkeypatch.setenv("ASTRA_PRICE_IN_PER_MTOK", "0")
    monkeypatch.setenv("ASTRA_PRICE_OUT_PER_MTOK", "0.5")
    context = Context()  # the one place the environment is read
    assert price_for("qwen2.5-coder", price_in=context.price_in_per_mtok,
                     price_out=context.price_out_per_mtok) == Price(0, 0.5)
    monkeypatch.setenv("ASTRA_PRICE_OUT_PER_MTOK", "cheap")
    with pytest.raises(ConfigurationError, match="ASTRA_PRICE_OUT_PER_MTOK"):
        Context()


def test_input_bound_is_at_least_one_token_per_byte():
    text = json.dumps({"messages": [{"role": "user", "content": "héllo wörld " * 100}]})
    assert input_token_bound(text, 1) >= len(text.encode()) + 8


def test_reserve_settle_and_report(ledger):
    assert isinstance(ledger, CostLedger)
    ledger.reserve("t1", "r1", 0.05, model="openai:gpt-4.1-mini", **LIMITS)
    assert ledger.session("t1").spent_usd == pytest.approx(0.05)  # open: counted at its worst case
    assert ledger.session("t1").open_reservations == 1
    ledger.settle("r1", 1000, 200, 0.0007)
    ledger.settle("r1", 1, 1, 99.0)  # settling twice changes nothing
    usage = ledger.session("t1")
    assert (usage.requests, usage.open_reservations, usage.input_tokens, usage.output_tokens) == (1, 0, 1000, 200)
    assert usage.spent_usd == pytest.approx(0.0007) and usage.limit_usd == 1.0 and usage.model == "openai:gpt-4.1-mini"
    ledger.reserve("t1", "r1", 0.05, model="openai:gpt-4.1-mini", **LIMITS)  # same id: not counted twice
    ledger.reserve("t2", "r2", 0.02, model="openai:gpt-4.1-mini", **LIMITS)
    ledger.settle("r2", 0, 0, 0.0, outcome="failed", note="HTTP 429")
    total = ledger.total()
    assert (total.requests, total.failed) == (2, 1) and total.spent_usd == pytest.approx(0.0007)
    assert [u.thread_id for u in ledger.sessions()] == ["t1", "t2"]
    assert [r["state"] for r in ledger.requests("t2")] == ["failed"]


def test_a_request_that_could_exceed_a_limit_is_refused_and_not_recorded(ledger):
    ledger.reserve("t1", "r1", 0.03, model="m", session_limit=0.05, total_limit=1.0)
    with pytest.raises(BudgetExceededError, match=r"session budget \$0.0500.*--budget"):
        ledger.reserve("t1", "r2", 0.03, model="m", session_limit=0.05, total_limit=1.0)
    ledger.settle("r1", 10, 10, 0.01)  # the real cost is lower: now the next request fits
    ledger.reserve("t1", "r3", 0.03, model="m", session_limit=0.05, total_limit=1.0)
    with pytest.raises(BudgetExceededError, match=r"total budget \$0.0500 across all sessions.*--total-budget"):
        ledger.reserve("t2", "r4", 0.02, model="m", session_limit=1.0, total_limit=0.05)
    assert [r["request_id"] for r in ledger.requests()] == ["r1", "r3"]
    assert ledger.total().spent_usd == pytest.approx(0.04)


def test_an_unsettled_reservation_survives_a_killed_process(tmp_path):
    path = tmp_path / "ledger.sqlite"
    code = textwrap.dedent(f"""
        import os, signal
        from astra_memory.costs.ledger import SqliteCostLedger
        ledger = SqliteCostLedger({str(path)!r})
        ledger.reserve("t1", "r1", 0.04, model="m", session_limit=0.05, total_limit=1.0)
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    child = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert child.returncode == -signal.SIGKILL, child.stderr
    with open_sqlite_ledger(path) as ledger:
        usage = ledger.session("t1")
        assert (usage.requests, usage.open_reservations) == (1, 1) and usage.spent_usd == pytest.approx(0.04)
        assert ledger.session_limit("t1") == 0.05  # a resumed session keeps the limit it started with
        with pytest.raises(BudgetExceededError):
            ledger.reserve("t1", "r2", 0.02, model="m", session_limit=0.05, total_limit=1.0)


def test_concurrent_processes_never_overspend_the_total(tmp_path):
    """Four processes race for a $0.25 total in $0.01 reservations: exactly 25 get through."""
    path = tmp_path / "ledger.sqlite"
    SqliteCostLedger(path).close()
    code = textwrap.dedent(f"""
        import sys
        from astra_memory.costs.ledger import BudgetExceededError, SqliteCostLedger
        ledger = SqliteCostLedger({str(path)!r})
        ok = 0
        for i in range(15):
            try:
                ledger.reserve("t" + sys.argv[1], f"r{{sys.argv[1]}}-{{i}}", 0.01, model="m",
                               session_limit=1.0, total_limit=0.25)
                ok += 1
            except BudgetExceededError:
                pass
        print(ok)
    """)
    children = [subprocess.Popen([sys.executable, "-c", code, str(n)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
                for n in range(4)]
    granted = sum(int(child.communicate(timeout=120)[0]) for child in children)
    assert granted == 25
    with open_sqlite_ledger(path) as ledger:
        assert ledger.total().requests == 25 and ledger.total().spent_usd == pytest.approx(0.25)


def test_ledger_setup_is_idempotent_and_refuses_a_foreign_file(tmp_path):
    path = tmp_path / "ledger.sqlite"
    for _ in range(2):
        with open_sqlite_ledger(path) as ledger:
            ledger.reserve("t", f"r-{ledger.total().requests}", 0.01, model="m", **LIMITS)
    with open_sqlite_ledger(path) as ledger:
        assert ledger.total().requests == 2
    assert ledger_path_for(tmp_path / "checkpoints.sqlite") == path
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(ConfigurationError, match="junk.sqlite is damaged .*nothing was written"):
        SqliteCostLedger(junk)


def test_state_counters_catch_up_with_the_ledger_and_never_go_down(ledger):
    ledger.reserve("t1", "crashed", 0.02, model="m", **LIMITS)  # reserved, then the process died
    ledger.reserve("t1", "r2", 0.02, model="m", **LIMITS)
    ledger.settle("r2", 500, 50, 0.001)
    state = {"model_requests": 1, "input_tokens": 400, "output_tokens": 40, "cost_usd": 0.0008}
    delta = ledger_catch_up(state, ledger, "t1")
    assert delta == {"model_requests": 1, "input_tokens": 100, "output_tokens": 10,
                     "cost_usd": pytest.approx(0.0202)}
    assert ledger_catch_up({"model_requests": 9, "input_tokens": 9999, "output_tokens": 999, "cost_usd": 5.0},
                           ledger, "t1") == {}


def test_preflight_refuses_without_approval_key_or_price(monkeypatch):
    live = Context(model="openai:gpt-4.1-mini", approve_live_cost=True)
    with pytest.raises(ConfigurationError, match="--approve-live-cost.*ASTRA_APPROVE_LIVE_COST=1"):
        preflight("openai:gpt-4.1-mini", Context())
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY is not set"):
        preflight("openai:gpt-4.1-mini", live)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-preflight-000000000000")
    assert preflight("openai:gpt-4.1-mini", live) == Price(0.40, 1.60)
    monkeypatch.setenv("ASTRA_APPROVE_LIVE_COST", "1")
    assert preflight("openai:gpt-4.1-mini", Context())  # the environment can approve too
    with pytest.raises(ConfigurationError, match="--price-in"):
        preflight("openai:my-local-model", live)
    with pytest.raises(ConfigurationError, match="--budget must be a positive amount"):
        preflight("openai:gpt-4.1-mini", Context(approve_live_cost=True, session_budget_usd=0))
    with pytest.raises(ConfigurationError, match="'scripted' or 'openai:<model>'"):
        preflight("anthropic:claude", live)


def test_a_live_turn_without_a_ledger_is_refused_before_sending(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-preflight-000000000000")
    context = Context(approve_live_cost=True, base_url="http://127.0.0.1:9/v1")  # nothing listens there
    with pytest.raises(ConfigurationError, match="needs a cost ledger"):
        live_turn("openai:gpt-4.1-mini", context, [], thread_id="t", run_dir=None)


def test_an_unreachable_server_is_a_clear_failure_with_nothing_charged(monkeypatch, ledger):
    from langchain_core.messages import HumanMessage

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-preflight-000000000000")
    context = Context(approve_live_cost=True, base_url="http://127.0.0.1:9/v1", ledger=ledger, max_retries=0,
                      request_timeout_s=2)
    with pytest.raises(LiveRequestError, match="cannot reach the model server at http://127.0.0.1:9/v1"):
        live_turn("openai:gpt-4.1-mini", context, [HumanMessage(content="hi")], thread_id="t", run_dir=None)
    assert [(r["state"], r["cost_usd"]) for r in ledger.requests()] == [("failed", 0.0)]


def test_transcript_redaction_replaces_the_literal_key_and_patterns():
    key = "local-token-7f3a9c2e11"  # does not look like a key: only the literal replacement catches it
    text = f"Authorization: {key}; other sk-abcdefghijklmnopqrstuvwxyz012345"
    cleaned = redact_secrets(text, (key,))
    assert key not in cleaned and "sk-abcdefghijklmnop" not in cleaned
    assert redact_secrets("ollama says hi", ("ollama",)) == "ollama says hi"  # placeholders are not secrets


def test_a_sessions_knobs_are_recorded_without_credentials_and_options_win_on_resume(monkeypatch):
    for name in ("OPENAI_BASE_URL", "ASTRA_SESSION_BUDGET_USD", "ASTRA_PRICE_IN_PER_MTOK", "ASTRA_PRICE_OUT_PER_MTOK",
                 "ASTRA_MAX_ATTEMPTS", "ASTRA_APPROVE_LIVE_COST"):
        monkeypatch.delenv(name, raising=False)
    started = Context(base_url="http://127.0.0.1:11434/v1", use_responses_api=True, session_budget_usd=0.05,
                      price_in_per_mtok=0.0, price_out_per_mtok=0.0, max_attempts=5, approve_live_cost=True)
    recorded = recorded_knobs(started)
    assert {k: recorded[k] for k in ("base_url", "use_responses_api", "session_budget_usd", "price_in_per_mtok",
                                     "price_out_per_mtok", "max_attempts")} == {
        "base_url": "http://127.0.0.1:11434/v1", "use_responses_api": True, "session_budget_usd": 0.05,
        "price_in_per_mtok": 0.0, "price_out_per_mtok": 0.0, "max_attempts": 5}
    assert "approve_live_cost" not in recorded and "ledger" not in recorded  # every process approves again
    json.dumps(recorded)  # it goes into the checkpointed task
    # A URL with credentials in it never reaches the checkpoint.
    assert recorded_knobs(Context(base_url="https://user:s3cret@llm.internal/v1"))["base_url"] is None
    # Settings from the environment are recorded too: a resume in another shell gets the same ones.
    monkeypatch.setenv("OPENAI_BASE_URL", "http://from-env:8000/v1")
    monkeypatch.setenv("ASTRA_PRICE_IN_PER_MTOK", "0.5")
    from_env = recorded_knobs(Context())
    assert from_env["base_url"] == "http://from-env:8000/v1" and from_env["price_in_per_mtok"] == 0.5
    assert from_env["session_budget_usd"] == 0.25 and from_env["use_responses_api"] is True  # the defaults
    # On resume, what the session recorded wins over the environment ...
    monkeypatch.setenv("ASTRA_MAX_ATTEMPTS", "9")
    resumed = session_context(recorded)
    assert (resumed.base_url, resumed.use_responses_api, resumed.session_budget_usd, resumed.price_in_per_mtok,
            resumed.max_attempts) == ("http://127.0.0.1:11434/v1", True, 0.05, 0.0, 5)
    # ... and what is given again wins over what was recorded.
    given = session_context(recorded, {"base_url": "http://other:1/v1", "use_responses_api": False,
                                       "session_budget_usd": 0.1, "max_attempts": 2})
    assert (given.base_url, given.use_responses_api, given.session_budget_usd, given.max_attempts) == (
        "http://other:1/v1", False, 0.1, 2)
    assert session_context(None).use_responses_api is True and session_context(None).max_attempts == 9

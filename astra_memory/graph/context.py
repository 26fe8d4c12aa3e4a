"""Run settings passed through LangGraph's Runtime (not checkpointed: they are the run's knobs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from astra_memory.settings import DEFAULT_MIN_SCORE


@dataclass
class Context:
    model: str | None = None  # None: the model named in the task (scripted by default)
    base_url: str | None = None  # OpenAI-compatible server, e.g. http://localhost:11434/v1
    use_responses_api: bool | None = None  # None: the session's recorded choice, else chat completions
    max_attempts: int = 3  # test runs after finish() before the run ends `failed`
    max_model_requests: int = 30
    max_tool_calls: int = 60
    max_invalid_turns: int = 3  # refused tool-call turns before the run ends `failed`
    test_timeout_s: float = 120.0
    memory_top_k: int = 3
    min_score: float = DEFAULT_MIN_SCORE
    # -- live models and the cost guard (astra_memory/models/cost.py) --
    approve_live_cost: bool = False  # live requests cost money: --approve-live-cost / ASTRA_APPROVE_LIVE_COST=1
    session_budget_usd: float | None = None  # None: the limit recorded for the thread, else ASTRA_SESSION_BUDGET_USD
    total_budget_usd: float | None = None  # across all sessions; None: ASTRA_TOTAL_BUDGET_USD or the default
    price_in_per_mtok: float | None = None  # USD per 1M input tokens; None: the price table / env
    price_out_per_mtok: float | None = None
    max_output_tokens: int = 4096  # sent as the request's output cap; bounds each request's worst case
    request_timeout_s: float = 120.0  # per HTTP attempt (openai client)
    max_retries: int = 3  # openai client retries of timeouts, 429 and 5xx, with backoff
    ledger: Any = None  # a models.cost.CostLedger; session.start_session/resume_session fill it in

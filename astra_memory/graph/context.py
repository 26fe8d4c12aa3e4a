"""Run settings passed through LangGraph's Runtime (not checkpointed: they are the run's knobs)."""

from __future__ import annotations

from dataclasses import dataclass

from astra_memory.settings import DEFAULT_MIN_SCORE


@dataclass
class Context:
    model: str | None = None  # None: the model named in the task (scripted by default)
    base_url: str | None = None  # OpenAI-compatible server, e.g. http://localhost:11434/v1
    use_responses_api: bool = False
    max_attempts: int = 3  # test runs after finish() before the run ends `failed`
    max_model_requests: int = 30
    max_tool_calls: int = 60
    max_invalid_turns: int = 3  # refused tool-call turns before the run ends `failed`
    test_timeout_s: float = 120.0
    memory_top_k: int = 3
    min_score: float = DEFAULT_MIN_SCORE

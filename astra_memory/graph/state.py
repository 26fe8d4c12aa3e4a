"""The graph's state. Counters live here so that a resumed thread keeps them."""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

Status = Literal["fixed", "failed", "nothing_to_fix", "budget_exhausted"]
BUDGET_KEYS = ("model_requests", "tool_calls", "input_tokens", "output_tokens", "cost_usd", "test_runs")


def add_counts(current: dict[str, float] | None, delta: dict[str, float] | None) -> dict[str, float]:
    """Budgets only grow: each node returns what it spent, and it is added to the total."""
    total = dict(current or {})
    for key, value in (delta or {}).items():
        total[key] = total.get(key, 0) + value
    return total


class Task(TypedDict, total=False):
    """What to fix and where; set once at the start of a session."""

    workspace: str  # absolute path of the project copy the agent works in
    test_command: str  # e.g. "python -m pytest -q tests", run without a shell
    prompt: str  # the user's description of the problem
    project: str  # project name recorded with stored fixes
    scenario: str | None  # bundled scenario name, if any
    script: list[dict[str, Any]] | None  # the scripted model's turns (scenario solution)
    model: str  # "scripted" or e.g. "openai:gpt-4.1-mini"
    protected: list[str]  # workspace paths the agent may not edit (the acceptance tests)
    test_env: dict[str, str]  # extra environment for the test command, declared by the scenario
    run_dir: str  # where events, edit journals and evidence of this session go
    session_id: str  # = thread id
    live: dict[str, Any]  # a live session's server, wire API, budget and prices, reused on resume (models/live.py)


class AgentState(TypedDict, total=False):
    task: Task
    messages: Annotated[list[AnyMessage], add_messages]  # the model conversation
    test_runs: Annotated[list[dict[str, Any]], operator.add]  # every test run: exit code, counts, outcome
    failure: dict[str, Any] | None  # observed failure: error type, failing tests, message, files
    memory: dict[str, Any] | None  # query, hits, rendered text, delivered flag
    edits: Annotated[list[dict[str, Any]], operator.add]  # path, before/after sha256, unified diff
    confirmed_outcome: str | None  # set by a passing test run, cleared by any edit
    fix: dict[str, Any] | None  # the model's finish(): fix description and error type
    stored_memory_id: str | None
    budget: Annotated[dict[str, float], add_counts]  # model requests, tool calls, tokens, spend
    attempts: int  # test runs after a finish()
    invalid_turns: int  # model turns whose tool calls were refused
    status: Status | None  # the named end of the run
    reason: str | None  # why the run ended the way it did
    last_node: str

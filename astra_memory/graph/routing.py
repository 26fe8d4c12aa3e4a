"""Routing functions: the gates of the graph. Pure functions of state, unit-tested on hand-built state."""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import AIMessage

from astra_memory.graph.state import AgentState


def memory_delivered(state: AgentState) -> bool:
    return bool((state.get("memory") or {}).get("delivered"))


def last_ai_message(state: AgentState) -> AIMessage | None:
    for message in reversed(state.get("messages") or []):
        if isinstance(message, AIMessage):
            return message
    return None


def route_after_observe(state: AgentState) -> Literal["memory_search", "report"]:
    return "report" if state.get("status") else "memory_search"


def route_after_investigate(state: AgentState) -> Literal["tools", "edit", "test", "report"]:
    """The memory gate lives here: no path to `edit` or `test` before the memory result was delivered."""
    if state.get("status"):
        return "report"
    message = last_ai_message(state)
    calls = message.tool_calls if message is not None else []
    if not memory_delivered(state) or not calls:  # includes calls whose arguments were not JSON
        return "tools"  # the tools node refuses the turn and says why
    first = calls[0]["name"]
    if first == "apply_edit":
        return "edit"
    if first == "finish":
        return "test"
    return "tools"


def route_after_step(state: AgentState) -> Literal["investigate", "report"]:
    return "report" if state.get("status") else "investigate"


def fix_confirmed(state: AgentState) -> bool:
    """A passing run, the latest one, with no edit after it."""
    runs = state.get("test_runs") or []
    if not runs or not state.get("confirmed_outcome"):
        return False
    last = runs[-1]
    return (
        bool(last.get("passed"))
        and last.get("outcome") == state.get("confirmed_outcome")
        and last.get("edits_seen") == len(state.get("edits") or [])
    )


def route_after_test(state: AgentState) -> Literal["store", "investigate", "report"]:
    """The confirmed-fix gate: `store` is reachable only from a passing test run."""
    if fix_confirmed(state):
        return "store"
    return "report" if state.get("status") else "investigate"

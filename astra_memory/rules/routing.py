"""Routing functions: the gates as edges. Pure functions of state, unit-tested on hand-built state."""

from __future__ import annotations

from typing import Literal

from astra_memory.rules.gates import fix_confirmed, last_ai_message, memory_delivered
from astra_memory.state import AgentState
from astra_memory.tools.registry import ToolKind, tool_kind


def route_after_observe(state: AgentState) -> Literal["memory_search", "report"]:
    return "report" if state.get("status") else "memory_search"


def route_after_replay(state: AgentState) -> Literal["store", "investigate", "report"]:
    """A replayed fix is stored only as a confirmed one (same gate as after `test`)."""
    if fix_confirmed(state):
        return "store"
    return "report" if state.get("status") else "investigate"


def route_after_investigate(state: AgentState) -> Literal["tools", "edit", "test", "report"]:
    """The memory gate lives here: no path to `edit` or `test` before the memory result was delivered."""
    if state.get("status"):
        return "report"
    message = last_ai_message(state)
    calls = message.tool_calls if message is not None else []
    if not memory_delivered(state) or not calls:  # includes calls whose arguments were not JSON
        return "tools"  # the tools node refuses the turn and says why
    kind = tool_kind(calls[0]["name"])
    if kind is ToolKind.EDIT:
        return "edit"
    if kind is ToolKind.FINISH:
        return "test"
    return "tools"  # read-only tools, and unknown names (refused there)


def route_after_step(state: AgentState) -> Literal["investigate", "report"]:
    return "report" if state.get("status") else "investigate"


def route_after_test(state: AgentState) -> Literal["store", "investigate", "report"]:
    """The confirmed-fix gate: `store` is reachable only from a passing test run."""
    if fix_confirmed(state):
        return "store"
    return "report" if state.get("status") else "investigate"

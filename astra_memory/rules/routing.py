"""Routing functions: the gates as edges. Pure functions of state, unit-tested on hand-built state."""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import AIMessage

from astra_memory.rules.gates import (
    diagnosis_delivered,
    fix_confirmed,
    last_ai_message,
    memory_delivered,
    workspace_passed,
)
from astra_memory.state import AgentState
from astra_memory.tools.registry import ToolKind, tool_kind


def route_after_observe(state: AgentState) -> Literal["memory_search", "report"]:
    return "report" if state.get("status") else "memory_search"


def route_after_replay(state: AgentState) -> Literal["confirm", "investigate", "report"]:
    """A replayed fix goes the way of any passing fix: to the fresh-copy `confirm`, then `store`."""
    if workspace_passed(state):
        return "confirm"
    return "report" if state.get("status") else "investigate"


def route_after_investigate(
        state: AgentState) -> Literal["tools", "diagnosis_search", "approve", "edit", "test", "report"]:
    """The memory gates live here: no path to `edit` or `test` before the memory result was delivered,
    and none to `edit` (or `approve`) before the diagnosis search result was delivered."""
    if state.get("status"):
        return "report"
    message = last_ai_message(state)
    calls = message.tool_calls if message is not None else []
    if not memory_delivered(state) or not calls:  # includes calls whose arguments were not JSON
        return "tools"  # the tools node refuses the turn and says why
    kind = tool_kind(calls[0]["name"])
    if kind is ToolKind.DIAGNOSIS:
        return "diagnosis_search"
    if kind is ToolKind.EDIT:
        if not diagnosis_delivered(state):
            return "tools"  # refused there: state the diagnosis first
        return "approve" if approval_required(state) else "edit"
    if kind is ToolKind.FINISH:
        return "test"
    return "tools"  # read-only tools, and unknown names (refused there)


def approval_required(state: AgentState) -> bool:
    """A human approves each edit first (task.approve_edits, set once by `prepare`)."""
    return bool((state.get("task") or {}).get("approve_edits"))


def route_after_approve(state: AgentState) -> Literal["edit", "investigate", "report"]:
    """Approved (or edited by the reviewer): the model's call is still the last message. Rejected:
    the rejection answered it, and the model tries again."""
    if state.get("status"):
        return "report"
    messages = state.get("messages") or []
    return "edit" if messages and isinstance(messages[-1], AIMessage) else "investigate"


def route_after_step(state: AgentState) -> Literal["investigate", "report"]:
    """After tools, diagnosis_search and edit: the model's next turn, unless the run has ended."""
    return "report" if state.get("status") else "investigate"


def route_after_test(state: AgentState) -> Literal["confirm", "investigate", "report"]:
    """The confirmed-fix gate, first half: `confirm` is reachable only from a passing test run."""
    if workspace_passed(state):
        return "confirm"
    return "report" if state.get("status") else "investigate"


def route_after_confirm(state: AgentState) -> Literal["store", "report"]:
    """The confirmed-fix gate, second half: `store` only after the fresh copy passed too."""
    return "store" if fix_confirmed(state) else "report"

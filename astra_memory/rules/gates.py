"""The gates: memory first (the symptom search before any model turn, and the diagnosis search
before any edit), and store only what a passing test run confirmed, in the agent's workspace and
again in a fresh copy of the pre-session project with only the session's edits.

The routers (routing.py) make a broken rule unreachable; the nodes call the ``require_*`` checks
again before they act (defence in depth, and it makes the rules visible in tests).
"""

from __future__ import annotations

from langchain_core.messages import AIMessage

from astra_memory.errors import (
    ConfirmedFixGateError,
    DiagnosisGateError,
    MemoryGateError,
)
from astra_memory.state import AgentState


def memory_delivered(state: AgentState) -> bool:
    return bool((state.get("memory") or {}).get("delivered"))


def diagnosis_delivered(state: AgentState) -> bool:
    """The model stated its diagnosis and the memory search made with it was delivered."""
    return bool((state.get("diagnosis") or {}).get("delivered"))


def workspace_passed(state: AgentState) -> bool:
    """A passing run, the latest one, with no edit after it."""
    runs = state.get("test_runs") or []
    if not runs or not state.get("passed_outcome"):
        return False
    last = runs[-1]
    return (
        last["passed"]
        and last["outcome"] == state.get("passed_outcome")
        and last["edits_seen"] == len(state.get("edits") or [])
    )


def fix_confirmed(state: AgentState) -> bool:
    """The confirm node's fresh-copy run passed, for exactly the current edits and passing run."""
    result = state.get("confirm")
    return bool(
        result
        and result["passed"]
        and result["outcome"]
        and workspace_passed(state)
        and result["confirms"] == state.get("passed_outcome")
        and result["edits_seen"] == len(state.get("edits") or [])
    )


def require_memory(state: AgentState, action: str) -> None:
    if not memory_delivered(state):
        raise MemoryGateError(f"{action} refused: the memory search result has not been delivered yet")


def require_diagnosis(state: AgentState, action: str) -> None:
    """What an edit requires (and approving one): both memory searches delivered, the symptom search
    first and then the search with the model's diagnosis."""
    require_memory(state, action)
    if not diagnosis_delivered(state):
        raise DiagnosisGateError(f"{action} refused: no diagnosis search result has been delivered yet "
                                 "(state_diagnosis comes before the first edit)")


def require_workspace_passed(state: AgentState) -> None:
    if not workspace_passed(state):
        raise ConfirmedFixGateError(
            "store refused: no passing test run confirms the current edits "
            "(no passing run yet, or an edit came after it)"
        )


def require_fix_confirmed(state: AgentState) -> None:
    """What store requires: a passing workspace run and a passing fresh-copy run for the same edits."""
    require_workspace_passed(state)
    if not fix_confirmed(state):
        raise ConfirmedFixGateError(
            "store refused: the fix was not confirmed in a fresh copy of the project "
            "(no confirm run for the current edits, or it failed)"
        )


def last_ai_message(state: AgentState) -> AIMessage | None:
    for message in reversed(state.get("messages") or []):
        if isinstance(message, AIMessage):
            return message
    return None

"""Run one tool call so that nothing its arguments do can crash the session or flood the context.

The abort rule (seed 003): only the expected refusals become observations the model reads and
goes on from: a refusal we made on purpose (``AstraError``: bad arguments, a confined path), and
what the file system or a decoder says of the arguments (``OSError``, ``ValueError``: a path that
does not exist, a name too long for the disk, bytes that do not decode). Anything else is a bug of
ours, not the model's bad input: it propagates, the node fails, and LangGraph keeps the last
checkpoint before it (the model's pending decision), so the session ends with status ``error``
(session/run.py) and ``resume`` retries the same call after the fix. The rules' own errors always
propagate too: a gate or limit broken inside a tool ends the run as it would anywhere else.
Results are cut to ``MAX_RESULT_CHARS``.

``ASTRA_TOOL_FAULT=1`` (``=N``: the N-th guarded call of the process) raises ``InjectedFault`` inside
the guard, for the tests of this rule; production runs never set it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

from langgraph.errors import GraphBubbleUp

from astra_memory.errors import (
    AgentLimitError,
    AstraError,
    ConfigurationError,
    ConfirmedFixGateError,
    MemoryGateError,
    UnconfirmedOutcomeError,
)

MAX_RESULT_CHARS = 120_000
MAX_ERROR_CHARS = 2_000
# Never turned into observations: the rules (and LangGraph's own interrupts) must end or pause the run.
PROPAGATED = (MemoryGateError, ConfirmedFixGateError, UnconfirmedOutcomeError, AgentLimitError,
              ConfigurationError, GraphBubbleUp)

T = TypeVar("T")
FAULT_ENV = "ASTRA_TOOL_FAULT"
_calls = 0


class InjectedFault(RuntimeError):
    """An internal error injected by ``ASTRA_TOOL_FAULT`` (tests): stands for a bug in a tool."""


def _fault_point() -> None:
    global _calls
    wanted = os.environ.get(FAULT_ENV, "").strip()
    if not wanted:
        return
    _calls += 1
    if _calls == int(wanted):
        raise InjectedFault(f"injected by {FAULT_ENV}={wanted}")


def bound_text(text: str, limit: int = MAX_RESULT_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... result cut at {limit} of {len(text)} characters]"


def call_guarded(run: Callable[[], T]) -> tuple[T | None, str | None]:
    """``(run(), None)``, or ``(None, error observation)`` when the tool refused the call; any other
    exception (a bug of ours) propagates."""
    try:
        _fault_point()
        return run(), None
    except PROPAGATED:
        raise
    except AstraError as exc:  # a refusal we made on purpose: its message is for the model
        return None, bound_text(f"error: {exc}", MAX_ERROR_CHARS)
    except (OSError, ValueError) as exc:  # the file system or a decoder refused the arguments
        return None, bound_text(f"error: {type(exc).__name__}: {exc}", MAX_ERROR_CHARS)

"""Run one tool call so that nothing its arguments do can crash the session or flood the context.

A tool that fails on a well-formed call (a path that does not exist, a file name too long for the
disk, a pattern RE2 refuses, anything unexpected) answers with an error observation: the model
reads it and goes on, and a resumed session does not die on the same call forever. The rules'
own errors are not tool failures and always propagate: a gate or limit broken inside a tool ends
the run as it would anywhere else. Results are cut to ``MAX_RESULT_CHARS``.
"""

from __future__ import annotations

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


def bound_text(text: str, limit: int = MAX_RESULT_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... result cut at {limit} of {len(text)} characters]"


def call_guarded(run: Callable[[], T]) -> tuple[T | None, str | None]:
    """``(run(), None)``, or ``(None, error observation)`` when the tool failed."""
    try:
        return run(), None
    except PROPAGATED:
        raise
    except AstraError as exc:  # a refusal we made on purpose: its message is for the model
        return None, bound_text(f"error: {exc}", MAX_ERROR_CHARS)
    except (OSError, ValueError) as exc:  # the file system or a decoder refused the arguments
        return None, bound_text(f"error: {type(exc).__name__}: {exc}", MAX_ERROR_CHARS)
    except Exception as exc:  # noqa: BLE001 - a tool bug must not take the session (and every resume) down
        return None, bound_text(f"error: the tool failed unexpectedly ({type(exc).__name__}: {exc}); "
                                "try a different call", MAX_ERROR_CHARS)

"""The model settings a live session sends on the wire, through langchain-openai's own options.

* ``chain_responses`` (Responses API only): ``ChatOpenAI(use_previous_response_id=True)``. Each turn
  sends ``previous_response_id`` = the id of the session's last response (kept in the checkpointed
  AIMessage's ``response_metadata``) and only the items after it. A session's first turn has no
  earlier response, so every session starts a new chain; a resumed session continues from its
  last checkpointed response. When the server no longer knows that id, ``live_turn`` sends the
  full history once without it, which starts a new chain.
* ``reasoning_effort`` (``reasoning.effort``), ``verbosity`` (``text.verbosity``), ``service_tier``:
  passed as the ChatOpenAI fields of the same names; ``service_tier`` also picks the price
  (``costs/prices.py``).

Note on cost: chaining cuts what is sent (bytes, items), not necessarily what is billed: the
server still reads the chained context as input. The cost guard therefore keeps reserving
against the full conversation.
"""

from __future__ import annotations

from typing import Any

from astra_memory.context import Context
from astra_memory.costs.prices import SERVICE_TIERS
from astra_memory.errors import ConfigurationError

REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh")
VERBOSITIES = ("low", "medium", "high")
PREVIOUS_RESPONSE_NOT_FOUND = "previous_response_not_found"


def check_wire_settings(context: Context) -> None:
    for value, allowed, flag in ((context.reasoning_effort, REASONING_EFFORTS, "--reasoning-effort"),
                                 (context.verbosity, VERBOSITIES, "--verbosity"),
                                 (context.service_tier, SERVICE_TIERS, "--service-tier")):
        if value is not None and value not in allowed:
            raise ConfigurationError(f"{flag} must be one of {', '.join(allowed)} (got {value!r})")


def chained(context: Context) -> bool:
    return bool(context.use_responses_api) and bool(context.chain_responses)


def chat_openai_settings(context: Context) -> dict[str, Any]:
    """The ChatOpenAI keyword arguments for these settings (unset ones are left to the server)."""
    settings = {name: getattr(context, name) for name in ("reasoning_effort", "verbosity", "service_tier")
                if getattr(context, name) is not None}
    if chained(context):
        settings["use_previous_response_id"] = True
    return settings


def unknown_previous_response(exc: Exception) -> bool:
    """The server answered that it does not know the ``previous_response_id`` (expired, other server)."""
    code = getattr(exc, "code", None)
    param = getattr(exc, "param", None)
    return getattr(exc, "status_code", None) in (400, 404) and (
        code == PREVIOUS_RESPONSE_NOT_FOUND or param == "previous_response_id")

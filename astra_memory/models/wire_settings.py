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
* Which models take which values (``model_takes``): the price table holds prices only, so a small
  explicit rule by model name. Reasoning models take ``reasoning_effort``: the o-series (low, medium,
  high), gpt-5 / -mini / -nano / -codex (minimal to high), gpt-5.1 (none to high), gpt-5.2 and
  later, gpt-6* (none to xhigh); gpt-5*/gpt-6* also take ``verbosity``; gpt-3.5, gpt-4*, gpt-4o and
  gpt-4.1 take neither. Unset (the default), a setting is sent as ``low`` to a model that takes
  ``low``, and left to the server otherwise. Set, a value the model does not take is refused
  before any request (it would fail at the server, after the request was counted). A model the
  rule does not know (a local server's ``llama3.1``, a ``-chat`` variant) gets what is set, and
  no default.

Note on cost: chaining cuts what is sent (bytes, items), not necessarily what is billed: the
server still reads the chained context as input. The cost guard therefore keeps reserving
against the full conversation.
"""

from __future__ import annotations

import re
from typing import Any

from astra_memory.context import Context
from astra_memory.costs.prices import SERVICE_TIERS
from astra_memory.errors import ConfigurationError

REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh")
VERBOSITIES = ("low", "medium", "high")
DEFAULT_EFFORT = DEFAULT_VERBOSITY = "low"  # sent when unset, to models that take it
PREVIOUS_RESPONSE_NOT_FOUND = "previous_response_not_found"
MODEL_SETTINGS = {"reasoning_effort": "--reasoning-effort", "verbosity": "--verbosity"}

# (name pattern, reasoning efforts it takes, verbosities it takes); () = takes none; first match wins.
_RULES: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    (r"gpt-(3\.5|4)", (), ()),  # gpt-3.5, gpt-4, gpt-4-turbo, gpt-4o, gpt-4.1: no reasoning, no verbosity
    (r"o\d", ("low", "medium", "high"), ()),  # o1, o3, o3-mini, o4-mini, ...
    (r"gpt-5-pro", ("high",), VERBOSITIES),
    (r"gpt-5(-(mini|nano|codex))?(-\d{4}-\d\d-\d\d)?$", ("minimal", "low", "medium", "high"), VERBOSITIES),
    (r"gpt-5\.1-codex-max", ("none", "low", "medium", "high", "xhigh"), VERBOSITIES),
    (r"gpt-5\.1(?!\d)(?!-chat)", ("none", "low", "medium", "high"), VERBOSITIES),
    (r"gpt-(5\.([2-9]|\d\d)|6)(?!.*-chat)", ("none", "low", "medium", "high", "xhigh"), VERBOSITIES),
)


def model_takes(model: str) -> dict[str, tuple[str, ...] | None]:
    """The values of each model setting the model takes (``()``: none), or None: not known here."""
    bare = model.rsplit("/", 1)[-1].lower()  # "openai/gpt-5" on a router: the model's own name
    for pattern, efforts, verbosities in _RULES:
        if re.match(pattern, bare):
            return {"reasoning_effort": efforts, "verbosity": verbosities}
    return {"reasoning_effort": None, "verbosity": None}


def model_settings(model: str, context: Context) -> dict[str, str]:
    """``reasoning_effort`` and ``verbosity`` as they go on the wire to ``model``: what is set, if the
    model takes it (else ``ConfigurationError``, before any request); unset, ``low`` where the model
    takes it."""
    takes = model_takes(model)
    sent: dict[str, str] = {}
    for name, default in (("reasoning_effort", DEFAULT_EFFORT), ("verbosity", DEFAULT_VERBOSITY)):
        value, allowed = getattr(context, name), takes[name]
        if value is None:
            if allowed and default in allowed:
                sent[name] = default
        elif allowed is None or value in allowed:
            sent[name] = value
        elif not allowed:
            raise ConfigurationError(f"{model} takes no {name} ({MODEL_SETTINGS[name]} {value}): unset it "
                                     f"for this model")
        else:
            raise ConfigurationError(f"{model} does not take {MODEL_SETTINGS[name]} {value}: it takes "
                                     f"{', '.join(allowed)}")
    return sent


def check_wire_settings(context: Context, model: str | None = None) -> None:
    """Each setting is a known value, and (given the model) one the model takes."""
    for value, allowed, flag in ((context.reasoning_effort, REASONING_EFFORTS, "--reasoning-effort"),
                                 (context.verbosity, VERBOSITIES, "--verbosity"),
                                 (context.service_tier, SERVICE_TIERS, "--service-tier")):
        if value is not None and value not in allowed:
            raise ConfigurationError(f"{flag} must be one of {', '.join(allowed)} (got {value!r})")
    if model is not None:
        model_settings(model, context)


def chained(context: Context) -> bool:
    return bool(context.use_responses_api) and bool(context.chain_responses)


def chat_openai_settings(context: Context, model: str | None = None) -> dict[str, Any]:
    """The ChatOpenAI keyword arguments for these settings (see ``model_settings``; no model: one
    not known here; an unset ``service_tier`` is left to the server)."""
    settings: dict[str, Any] = model_settings(model or "", context)
    if context.service_tier is not None:
        settings["service_tier"] = context.service_tier
    if chained(context):
        settings["use_previous_response_id"] = True
    return settings


def unknown_previous_response(exc: Exception) -> bool:
    """The server answered that it does not know the ``previous_response_id`` (expired, other server)."""
    code = getattr(exc, "code", None)
    param = getattr(exc, "param", None)
    return getattr(exc, "status_code", None) in (400, 404) and (
        code == PREVIOUS_RESPONSE_NOT_FOUND or param == "previous_response_id")

"""Run knobs, passed through LangGraph's ``Runtime``; the one place they meet the environment.

Every knob has a default, and most can be set from the environment (the ``env`` of its field):
``Context()`` reads them, so a script, the CLI and LangGraph Studio all get the same values. A knob
the command line sets says how in its field too (``cli=Flag(...)``: flag, help, range, help panel):
`run`, `resume` and `demo` build their options from it (cli/options.py), so a default or a help
text is written once, here.
Where the data lives (``ASTRA_HOME``, the database URL) is not a knob: see ``settings.py``.

A session keeps its knobs across ``resume``: ``recorded_knobs`` writes them into the task when the
session starts, and ``session_context`` rebuilds the context from them on resume. What a caller
gives again wins, then what the session recorded, then the environment, then the default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any
from urllib.parse import urlsplit

from astra_memory.errors import ConfigurationError

# Calibrated on measured MiniLM scores: `astra-memory bench retrieval` (shipped cases, 34 scenarios in
# 8 families) scores every symptom query against every stored record. Related pairs (same bug family,
# other project), n=112: min 0.154, p5 0.25, median 0.45. Unrelated pairs (other family), n=1010:
# median 0.29, p95 0.43, max 0.60. Rule: the largest multiple of 0.05 at or below the lowest
# related score, so no measured related fix is hidden (it hides 3% of unrelated pairs: a floor
# against noise, not a relevance filter; the top-3 search shows the rest as quoted data the model
# may ignore). Was 0.20 on the first 26 scenarios; the 8 added later brought four related pairs
# between 0.15 and 0.19. The demo's alpha fix scores 0.46 for beta's query. Figures and plot:
# README "Results", results/retrieval/retrieval.md.
DEFAULT_MIN_SCORE = 0.15
# The fused score (vector and BM25, stores/hybrid.py) a hit needs to be shown at all: a weak list shows
# nothing. Chosen on the development sets only (docs/results.md).
DEFAULT_MIN_FUSED_SCORE = 0.35
DEFAULT_SESSION_BUDGET_USD = 0.25
DEFAULT_TOTAL_BUDGET_USD = 5.00
TRUE_WORDS = ("1", "true", "yes")


def _parse(name: str, raw: str, kind: type) -> Any:
    if kind is bool:
        return raw.strip().lower() in TRUE_WORDS
    try:
        return kind(raw)
    except ValueError:
        raise ConfigurationError(f"{name}={raw!r} is not a valid {kind.__name__}") from None


def _within(name: str, value: Any, cli: Flag | None) -> Any:
    """An environment value held to the bounds its option has on the command line: the variable is the
    same setting (outside round 9 case 09: ASTRA_MAX_TOOL_CALLS=-3 and ASTRA_MAX_ATTEMPTS=1000 were
    taken where --max-tool-calls -3 and --max-attempts 1000 are refused)."""
    low, high = (cli.min, cli.max) if cli is not None else (None, None)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low} to {high}" if low is not None and high is not None else (
            f"at least {low}" if low is not None else f"at most {high}")
        raise ConfigurationError(f"{name}={value!r} is out of range: it must be {bounds}")
    return value


LIVE = "Live models and the cost guard"  # the --help panel of the options that cost money or talk to a server


@dataclass(frozen=True)
class Flag:
    """How the command line sets a knob; `run`, `resume` and `demo` build their options from it
    (cli/options.py). ``decls``: ``--name``, or ``--on/--off`` for a switch either way; ``help`` may
    say ``{default}`` and ``{env}``, filled from the field; ``min``/``max`` bound a number; ``panel``
    groups the option in ``--help``."""

    decls: str
    help: str
    min: int | None = None
    max: int | None = None
    panel: str | None = None

    def changes(self, default: Any) -> str:
        """The flag that moves the knob off its default, for messages: ``--no-replay``, ``--budget``."""
        on, _, off = self.decls.partition("/")
        return off if off and default is True else on


def knob(default: Any, *, env: str | None = None, kind: type | None = None, cli: Flag | None = None,
         recorded: bool = True) -> Any:
    """A Context field: its default, the environment variable that overrides it, how the command
    line sets it (``cli``; its flag is named in limit messages), and whether a session keeps it
    across resume. ``kind`` parses the environment and types the option (default: the default's type)."""
    kind = kind or type(default)
    if cli is not None and kind is type(None):
        raise TypeError(f"a knob with an option needs its kind: {cli.decls}")
    # No key named like a pydantic Field argument ("default", "description", ...): pydantic reads
    # those from a dataclass field's metadata when LangGraph builds the context schema.
    metadata = {"declared_default": default, "env": env, "kind": kind, "cli": cli, "recorded": recorded,
                "option": cli.changes(default) if cli else None}
    if env is None:
        return field(default=default, metadata=metadata)

    def from_env() -> Any:
        raw = os.environ.get(env)
        return default if raw is None or raw.strip() == "" else _within(env, _parse(env, raw, kind), cli)

    return field(default_factory=from_env, metadata=metadata)


@dataclass(frozen=True)
class Context:
    model: str | None = knob(None, env="ASTRA_MODEL", kind=str, cli=Flag(  # None: the task's model
        "--model", "'scripted' or 'openai:<model>' ({env}; resume: the session's).", panel="Model"))
    base_url: str | None = knob(None, env="OPENAI_BASE_URL", kind=str, cli=Flag(
        "--base-url", "OpenAI-compatible server URL ({env}).", panel="Model"))
    use_responses_api: bool = knob(True, env="ASTRA_RESPONSES_API", cli=Flag(
        "--responses-api/--chat-completions", "Wire API: the Responses API (default) or chat completions "
        "({env}=0; resume: the session's).",
        panel="Model: wire API"))
    # -- model settings sent on the wire (astra_memory/models/wire_settings.py checks the values; unset
    # reasoning_effort / verbosity: low for the models that take them, see model_settings there) --
    chain_responses: bool = knob(True, env="ASTRA_CHAIN_RESPONSES", cli=Flag(
        "--chain-responses/--no-chain-responses", "Responses API: chain a session's turns with "
        "previous_response_id, sending only the new items each turn (default {default}; {env}).", panel="Model: wire API"))
    reasoning_effort: str | None = knob(None, env="ASTRA_REASONING_EFFORT", kind=str, cli=Flag(
        "--reasoning-effort", "Reasoning models: none, minimal, low, medium, high, xhigh ({env}; default: low "
        "for models that take it); a value the model does not take is refused before any request.", panel="Model"))
    verbosity: str | None = knob(None, env="ASTRA_VERBOSITY", kind=str, cli=Flag(
        "--verbosity", "Text verbosity: low, medium, high ({env}; default: low for models that take it, gpt-5 "
        "and later).", panel="Model"))
    service_tier: str | None = knob(None, env="ASTRA_SERVICE_TIER", kind=str, cli=Flag(
        "--service-tier", "auto, default, flex, fast (priority: its former name) ({env}); flex and fast "
        "change the price (`astra-memory prices MODEL`).", panel="Model"))
    max_attempts: int = knob(3, env="ASTRA_MAX_ATTEMPTS", cli=Flag(  # test runs after finish()
        "--max-attempts", "Test runs after finish() before the run ends failed (default {default}).", min=1, max=20, panel="Limits"))
    max_model_requests: int = knob(30, env="ASTRA_MAX_MODEL_REQUESTS", cli=Flag(
        "--max-model-requests", "Model requests per session (default {default}).", min=1, panel="Limits"))
    max_tool_calls: int = knob(60, env="ASTRA_MAX_TOOL_CALLS", cli=Flag(
        "--max-tool-calls", "Tool calls per session (default {default}).", min=1, panel="Limits"))
    max_invalid_turns: int = knob(3, env="ASTRA_MAX_INVALID_TURNS", cli=Flag(
        "--max-invalid-turns", "Refused model turns (a call refused, or no call) before the run ends failed "
        "(default {default}).", min=1, panel="Limits"))
    # Tool calls kept of one model reply (the first is run, the rest refused); more are dropped, all
    # counted against max_tool_calls (models/untrusted.py bound_reply).
    max_tool_calls_per_reply: int = knob(8, env="ASTRA_MAX_TOOL_CALLS_PER_REPLY")
    test_timeout_s: float = knob(120.0, env="ASTRA_TEST_TIMEOUT_S", cli=Flag(
        "--test-timeout", "Seconds a test run may take (default {default}).", min=1, panel="Limits"))
    memory_top_k: int = knob(3, env="ASTRA_MEMORY_TOP_K")
    min_score: float = knob(DEFAULT_MIN_SCORE, env="ASTRA_MIN_SCORE")
    # The fused score a memory hit needs to be shown (stores/hybrid.py; calibrated on the packaged MiniLM).
    min_fused_score: float = knob(DEFAULT_MIN_FUSED_SCORE, env="ASTRA_MIN_FUSED_SCORE")
    # A human approves each edit before it is applied (nodes/approve.py). None: on for the user's own
    # project, off for a bundled scenario's fresh copy (tasks.complete_task; the CLI: README).
    approve_edits: bool | None = knob(None, env="ASTRA_APPROVE_EDITS", kind=bool, cli=Flag(
        "--approve-edits/--no-approve-edits", "Show each proposed edit and ask before it is applied ({env}; "
        "default: ask for --workspace runs on a terminal, not for bundled scenarios or scripts; resume: the "
        "session's).", panel="Workspace"))
    namespace: str = knob("", env="ASTRA_NAMESPACE", cli=Flag(  # "": the shared default
        "--namespace", "Memory namespace of a team or project ({env}; default: the shared one).",
        panel="Memory"))
    replay: bool = knob(True, env="ASTRA_REPLAY", cli=Flag(  # try memory's confirmed diffs first
        "--replay/--no-replay", "Replay a confirmed fix from memory before asking a model ({env}; "
        "default {default}).", panel="Memory"))
    attempts: bool = knob(True, env="ASTRA_ATTEMPTS", cli=Flag(  # failed attempts: stores/attempts.py
        "--attempts/--no-attempts", "Remember changes that failed; refuse an exact repeat ({env}).",
        panel="Memory"))
    # -- live models and the cost guard (astra_memory/costs/) --
    approve_live_cost: bool = knob(False, env="ASTRA_APPROVE_LIVE_COST", recorded=False, cli=Flag(  # every process
        "--approve-live-cost", "Allow a live model to spend money (or {env}=1).", panel="Cost"))  # must approve again
    session_budget_usd: float = knob(DEFAULT_SESSION_BUDGET_USD, env="ASTRA_SESSION_BUDGET_USD", cli=Flag(
        "--budget", "Per-session spend limit in USD ({env}; default {default}; resume keeps the session's limit).",
        panel="Cost"))
    total_budget_usd: float = knob(DEFAULT_TOTAL_BUDGET_USD, env="ASTRA_TOTAL_BUDGET_USD", recorded=False, cli=Flag(
        "--total-budget", "Spend limit in USD across all sessions in the ledger ({env}; default {default}).",
        panel="Cost"))  # across every session: never one session's setting
    price_in_per_mtok: float | None = knob(None, env="ASTRA_PRICE_IN_PER_MTOK", kind=float, cli=Flag(
        "--price-in", "USD per 1M input tokens ({env}); needed for models not in the price table.", panel="Cost"))
    price_out_per_mtok: float | None = knob(None, env="ASTRA_PRICE_OUT_PER_MTOK", kind=float, cli=Flag(
        "--price-out", "USD per 1M output tokens ({env}); 0 for a free local server.", panel="Cost"))
    max_output_tokens: int = knob(4096, cli=Flag(  # bounds each live request's worst case
        "--max-output-tokens", "Output cap sent with every live request (default {default}).", min=1, panel="Cost"))
    request_timeout_s: float = knob(120.0, recorded=False)  # per HTTP attempt (openai client)
    max_retries: int = knob(3, recorded=False)  # openai client retries of timeouts, 429 and 5xx
    ledger: Any = knob(None, recorded=False)  # a costs.CostLedger; session.open_agent() provides one


KNOBS = {f.name: f for f in fields(Context)}


def setting_name(name: str) -> str:
    """How a user sets a knob, for messages: 'max_attempts (--max-attempts, ASTRA_MAX_ATTEMPTS)'."""
    meta = KNOBS[name].metadata
    ways = ", ".join(w for w in (meta.get("option"), meta.get("env")) if w)
    return f"{name} ({ways})" if ways else name


def default_of(name: str) -> Any:
    """The knob's default, before the environment."""
    return KNOBS[name].metadata["declared_default"]


def shown(value: Any) -> str:
    """A default as help texts say it: 'on', '120', '0.25'."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return f"{value:g}" if isinstance(value, float) else str(value)


def option_help(name: str) -> str:
    """The knob's ``--help`` text: its Flag's help with ``{default}`` and ``{env}`` filled in."""
    meta = KNOBS[name].metadata
    return meta["cli"].help.format(default=shown(meta["declared_default"]), env=meta["env"])


def recorded_knobs(context: Context) -> dict[str, Any]:
    """The knobs a session keeps across resume, as JSON-able values for its checkpointed task.

    A server URL that carries credentials (``user:password@``, or anything ``scrub`` redacts, such
    as ``?key=...``) is not recorded (checkpoints never hold secrets): such a session needs
    ``--base-url`` again on resume.
    """
    from astra_memory.redact import scrub  # here: detect-secrets is not loaded by the CLI's start

    knobs = {name: getattr(context, name) for name, f in KNOBS.items() if f.metadata.get("recorded")}
    url = knobs.get("base_url")
    if url and (urlsplit(url).username or urlsplit(url).password or scrub(url) != url):
        knobs["base_url"] = None
    return knobs


def session_context(recorded: Mapping[str, Any] | None, given: Mapping[str, Any] | None = None,
                    base: Context | None = None) -> Context:
    """The context of a resumed session: ``given`` (not None) wins, then ``recorded``, then ``base``
    (by default ``Context()``: the environment, then the defaults)."""
    values = {k: v for k, v in (recorded or {}).items() if k in KNOBS and v is not None}
    values.update({k: v for k, v in (given or {}).items() if k in KNOBS and v is not None})
    return replace(base or Context(), **values)

"""The options that `run`, `resume` and `demo` share, defined once.

Each option is named after the ``Context`` knob it sets. ``@session_options`` adds them to a
command and hands the command only the ones the user gave (``given``): on ``resume`` what is not
given comes from what the session recorded, then the environment, then the default
(``context.session_context``).
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from typing import Annotated, Any, Optional

import typer

_LIVE = "Live models and the cost guard"

SESSION_OPTIONS: dict[str, Any] = {
    "model": Annotated[Optional[str], typer.Option(
        "--model", help="'scripted' or 'openai:<model>' (ASTRA_MODEL; resume: the session's).")],
    "max_attempts": Annotated[Optional[int], typer.Option(
        "--max-attempts", min=1, max=20, help="Test runs after finish() before the run ends failed (default 3).")],
    "max_model_requests": Annotated[Optional[int], typer.Option(
        "--max-model-requests", min=1, help="Model requests per session (default 30).")],
    "max_tool_calls": Annotated[Optional[int], typer.Option(
        "--max-tool-calls", min=1, help="Tool calls per session (default 60).")],
    "test_timeout_s": Annotated[Optional[float], typer.Option(
        "--test-timeout", min=1, help="Seconds a test run may take (default 120).")],
    "approve_edits": Annotated[Optional[bool], typer.Option(
        "--approve-edits/--no-approve-edits", help="Show each proposed edit and ask before it is applied "
        "(ASTRA_APPROVE_EDITS; default: ask for --workspace runs on a terminal, not for bundled scenarios or "
        "scripts; resume: the session's).")],
    "namespace": Annotated[Optional[str], typer.Option(
        "--namespace", help="Memory namespace (team or project) searched and written (ASTRA_NAMESPACE; default "
        "the shared one; resume: the session's).")],
    "replay": Annotated[Optional[bool], typer.Option(
        "--replay/--no-replay", help="Before asking a model, replay a confirmed fix from memory whose diff applies "
        "here (ASTRA_REPLAY; default on; resume: the session's).")],
    "base_url": Annotated[Optional[str], typer.Option(
        "--base-url", help="OpenAI-compatible server URL (OPENAI_BASE_URL).", rich_help_panel=_LIVE)],
    "use_responses_api": Annotated[Optional[bool], typer.Option(
        "--responses-api/--chat-completions", help="Wire API (default chat completions; resume: the session's).",
        rich_help_panel=_LIVE)],
    "chain_responses": Annotated[Optional[bool], typer.Option(
        "--chain-responses/--no-chain-responses", help="Responses API: chain a session's turns with "
        "previous_response_id, sending only the new items each turn (default on; ASTRA_CHAIN_RESPONSES).",
        rich_help_panel=_LIVE)],
    "reasoning_effort": Annotated[Optional[str], typer.Option(
        "--reasoning-effort", help="Reasoning models: none, minimal, low, medium, high, xhigh "
        "(ASTRA_REASONING_EFFORT; default: the server's).", rich_help_panel=_LIVE)],
    "verbosity": Annotated[Optional[str], typer.Option(
        "--verbosity", help="Text verbosity: low, medium, high (ASTRA_VERBOSITY; default: the server's).",
        rich_help_panel=_LIVE)],
    "service_tier": Annotated[Optional[str], typer.Option(
        "--service-tier", help="auto, default, flex, priority (ASTRA_SERVICE_TIER); flex and priority change "
        "the price (costs/prices.py).", rich_help_panel=_LIVE)],
    "approve_live_cost": Annotated[bool, typer.Option(
        "--approve-live-cost", help="Allow a live model to spend money (or ASTRA_APPROVE_LIVE_COST=1).",
        rich_help_panel=_LIVE)],
    "session_budget_usd": Annotated[Optional[float], typer.Option(
        "--budget", help="Per-session spend limit in USD (ASTRA_SESSION_BUDGET_USD; default 0.25; resume keeps "
        "the session's limit).", rich_help_panel=_LIVE)],
    "total_budget_usd": Annotated[Optional[float], typer.Option(
        "--total-budget", help="Spend limit in USD across all sessions in the ledger (ASTRA_TOTAL_BUDGET_USD; "
        "default 5).", rich_help_panel=_LIVE)],
    "price_in_per_mtok": Annotated[Optional[float], typer.Option(
        "--price-in", help="USD per 1M input tokens (ASTRA_PRICE_IN_PER_MTOK); needed for models not in the "
        "price table.", rich_help_panel=_LIVE)],
    "price_out_per_mtok": Annotated[Optional[float], typer.Option(
        "--price-out", help="USD per 1M output tokens (ASTRA_PRICE_OUT_PER_MTOK); 0 for a free local server.",
        rich_help_panel=_LIVE)],
    "max_output_tokens": Annotated[Optional[int], typer.Option(
        "--max-output-tokens", min=1, help="Output cap sent with every live request (default 4096).",
        rich_help_panel=_LIVE)],
}


FALSE_IS_GIVEN = ("use_responses_api", "chain_responses", "approve_edits", "replay")  # --chat-completions, --no-chain-responses, --no-approve-edits, --no-replay


def session_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add the shared options to ``command``, which receives them as ``given`` (a dict of Context
    knobs the user set; a flag left off is not 'given', so the environment can still set it)."""
    hints = typing.get_type_hints(command, include_extras=True)  # the CLI's annotations are strings
    own = [p.replace(annotation=hints.get(p.name, p.annotation))
           for p in inspect.signature(command).parameters.values() if p.name != "given"]
    shared = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
                                default=False if name == "approve_live_cost" else None)
              for name, annotation in SESSION_OPTIONS.items()]

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        options = {name: kwargs.pop(name, None) for name in SESSION_OPTIONS}
        given = {name: value for name, value in options.items() if value is not None and value is not False
                 or (name in FALSE_IS_GIVEN and value is False)}
        return command(*args, given=given, **kwargs)

    wrapper.__signature__ = inspect.Signature(own + shared)  # what typer reads
    return wrapper

"""What to tell a user whose session needs a model: the whole command that will be accepted.

A live model costs money, so the command that gets one is refused without ``--approve-live-cost``
(models/live.preflight); advising only ``--model`` sends the user into that refusal. The advice
names the model, the approval and a budget, on the same project the session ran on; and, for a
Studio user, the same three as the assistant's context fields (docs/studio.md).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import Any

from astra_memory.context import DEFAULT_SESSION_BUDGET_USD

EXAMPLE_MODEL = "openai:gpt-4.1-mini"  # in the price table; the docs' example too


def rerun_command(task: Mapping[str, Any] | None) -> str:
    """``astra-memory run`` on the same bundled scenario or project as ``task``."""
    task = task or {}
    if task.get("scenario"):
        return f"astra-memory run {shlex.quote(str(task['scenario']))}"
    if task.get("workspace"):
        return (f"astra-memory run --workspace {shlex.quote(str(task['workspace']))} "
                f"--test-command {shlex.quote(str(task.get('test_command') or 'python -m pytest -q'))}")
    return "astra-memory run SCENARIO"


def live_model_flags(model: str = EXAMPLE_MODEL, budget_usd: float = DEFAULT_SESSION_BUDGET_USD) -> str:
    """The flags a live session needs to start: the model, the cost approval and a budget."""
    return f"--model {model} --approve-live-cost --budget {budget_usd:g}"


def needs_model_advice(task: Mapping[str, Any] | None = None) -> str:
    """The ``needs_model`` reason's advice: one line, with the full command that will be accepted."""
    return ("no model configured: the scripted model plays only a bundled scenario's script. Run the session "
            f"again with a live model (each request costs money; the budget caps it): OPENAI_API_KEY=... "
            f"{rerun_command(task)} {live_model_flags()} (or set ASTRA_MODEL, ASTRA_APPROVE_LIVE_COST=1 and "
            "ASTRA_SESSION_BUDGET_USD). In LangGraph Studio: a new thread whose assistant's context has "
            f'{{"model": "{EXAMPLE_MODEL}", "approve_live_cost": true, "session_budget_usd": '
            f'{DEFAULT_SESSION_BUDGET_USD:g}}}, with OPENAI_API_KEY in the server\'s .env')

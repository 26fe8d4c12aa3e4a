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
# Where the advice's command part starts: a terminal prints the command apart (cli/app.py), not twice.
RERUN_ADVICE = "Run the session again with a live model"


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
    return ("no model configured: the scripted model plays only a bundled scenario's script. " + RERUN_ADVICE +
            " (each request costs money; the budget caps it): OPENAI_API_KEY=... "
            f"{rerun_command(task)} {live_model_flags()} (or set ASTRA_MODEL, ASTRA_APPROVE_LIVE_COST=1 and "
            "ASTRA_SESSION_BUDGET_USD). In LangGraph Studio: a new thread whose assistant's context has "
            f'{{"model": "{EXAMPLE_MODEL}", "approve_live_cost": true, "session_budget_usd": '
            f'{DEFAULT_SESSION_BUDGET_USD:g}}}, with OPENAI_API_KEY in the server\'s .env')


def live_rerun_words(task: Mapping[str, Any] | None) -> list[str]:
    """The command of the advice, word by word: the key, the same run, a live model with its approval."""
    return ["OPENAI_API_KEY=...", *shlex.split(rerun_command(task)), *live_model_flags().split()]


def shell_lines(words: list[str], width: int) -> list[str]:
    """``words`` as shell lines of at most ``width`` characters where the words allow, broken only
    between an option and the next (`` \\`` ends each line but the last): a command a person copies
    from an 80-column terminal whole, where a terminal's own wrap would cut ``--test-command`` in two."""
    quoted = [w if w.startswith("OPENAI_API_KEY=") else shlex.quote(w) for w in words]
    units: list[str] = []
    for word in quoted:  # an option keeps its value on its line
        if units and not word.startswith("-") and units[-1].startswith("-") and " " not in units[-1]:
            units[-1] += " " + word
        else:
            units.append(word)
    lines = [units[0]]
    for unit in units[1:]:
        if len(lines[-1]) + 1 + len(unit) + 2 <= width or not lines[-1].strip():
            lines[-1] += " " + unit
        else:
            lines.append("    " + unit)
    return [line + " \\" for line in lines[:-1]] + lines[-1:]

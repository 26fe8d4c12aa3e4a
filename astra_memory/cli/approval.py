"""The CLI's side of edit approval (nodes/approve.py): show the proposed diff, ask, answer.

Default for ``run`` (when neither ``--approve-edits``/``--no-approve-edits`` nor
``ASTRA_APPROVE_EDITS`` is given): ask for ``--workspace`` runs when stdin and stderr are a terminal
(your own project is edited in place, and someone is there to answer); do not ask for bundled
scenarios (a fresh copy) or when nobody can answer (scripts, CI, pipes). ``--approve-edits``
asks whatever stdin is; at the end of input the session stays waiting and ``resume`` asks again.
"""

from __future__ import annotations

import sys
from typing import Any

import click
from rich.console import Console
from rich.markup import escape

from astra_memory.cli.common import folded, lit
from astra_memory.rules.approval import REPLAY_REQUEST
from astra_memory.session.run import StopAsking


def approval_default(*, workspace_run: bool, interactive: bool) -> bool:
    """Whether ``run`` asks before each edit when the user did not say."""
    return workspace_run and interactive


def interactive() -> bool:
    return sys.stdin.isatty() and sys.stderr.isatty()


def _cautions(request: dict[str, Any]) -> list[str]:
    """What the agent knows that should weigh on the answer, from the request's payload: an edit
    already recorded as a failed attempt on this failure (``tried_before``), and why a replay needs a
    human's yes (``why``). Printed before the diff, so the question is never asked without them."""
    cautions = [str(request["tried_before"])] if request.get("tried_before") else []
    return cautions + [f"this replay needs your approval: {why}" for why in request.get("why") or []]


def ask_on_terminal(err: Console):
    """An ``on_approval`` callback that asks on stdin; ``StopAsking`` at the end of input."""

    def read_line(prompt: str) -> str:
        err.print(prompt, end="", markup=False, highlight=False)
        line = sys.stdin.readline()
        if not line:
            err.print("")
            raise StopAsking("end of input")
        return line.strip()

    def on_approval(request: dict[str, Any]) -> Any:
        replay = request.get("kind") == REPLAY_REQUEST  # a stored diff: applied as it is, or not at all
        what = (f"replay the confirmed fix {request['memory_id']} from memory on {request['path']}"
                if replay else f"edit {request['path']}")
        head = "approval needed: the agent wants to "  # on a terminal the rest folds between words
        err.print(f"\n[bold]approval needed[/bold]: the agent wants to {escape(folded(what, first=len(head), out=err))}",
                  highlight=False)
        if request.get("error"):  # a path, test output: printed as it is, never as markup
            err.print(f"[red]{escape(str(request['error']))}[/red]", highlight=False)
        for caution in _cautions(request):
            err.print(f"[yellow]caution:[/yellow] {lit(folded(caution, first=len('caution: '), out=err))}",
                      highlight=False)
        err.print(request.get("diff") or "", markup=False, highlight=False)
        while True:
            choice = read_line("apply this replay? [a]pprove / [r]eject: " if replay
                               else "apply this edit? [a]pprove / [r]eject / [e]dit new_text: ").lower()
            if choice in ("a", "approve", "y", "yes"):
                return "approve"
            if choice in ("r", "reject", "n", "no"):
                # A replay is no model's proposal (there may be no model at all): its reason goes to the report.
                return {"action": "reject", "reason": read_line(
                    "reason (optional; kept in the session's report): " if replay else "reason (shown to the model): ")}
            if choice in ("e", "edit") and not replay:
                edited = click.edit(request["new_text"]) if sys.stdin.isatty() else None
                if edited is None:
                    err.print("no editor or no change; the proposal is unchanged")
                    continue
                return {"action": "edit", "new_text": edited.removesuffix("\n") if not request["new_text"].endswith("\n")
                        else edited}

    return on_approval

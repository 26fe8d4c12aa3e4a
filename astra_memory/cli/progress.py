"""What a session shows on the terminal while it runs: one line per node as it ends, with what it
found or did, and while a node runs, what is running and for how long (a transient spinner line on
a terminal only: logs and pipes get the node lines alone)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from astra_memory.cli.common import fold, lit
from astra_memory.cli.tool_lines import call_line, result_lines
from astra_memory.stores.confidence import NO_CONFIDENT_MATCH

INDENT = 18  # where a node's words start: "  · " and the node name in 13 columns and a space
# What a running node is doing, for the spinner line (a node not named here shows its name).
RUNNING = {"observe": "running the project's tests", "investigate": "waiting for the model",
           "test": "running the project's tests", "confirm": "running the tests in a fresh copy",
           "memory_search": "searching memory", "diagnosis_search": "searching memory for the diagnosis",
           "replay": "replaying a confirmed fix", "store": "storing the confirmed fix",
           "prepare": "copying the project", "tools": "running the model's tool call"}


def node_detail(node: str, update: dict) -> str:
    """The words after a node's name on its progress line: never empty when the node said anything."""
    detail = ""
    if node == "prepare" and update.get("task"):
        from astra_memory.tasks import interpreter_note

        task = update["task"]
        detail = (f"scenario {task['scenario']}" if task.get("scenario") else task.get("workspace", "")) + (
            "; edits wait for your approval" if task.get("approve_edits") else "") + (
            f"; {note}" if (note := interpreter_note(task)) else "")
    elif node == "observe" and update.get("test_runs"):
        detail = update["test_runs"][-1].get("outcome", "")
    elif node == "memory_search" and update.get("memory"):
        hits = update["memory"]["hits"]
        detail = (f"{len(hits)} hit(s), best {hits[0]['score']:.4f} from {hits[0]['session_id']}"
                  + (f", shown as {hits[0]['evidence']}" if hits[0].get("evidence") else "") if hits
                  else NO_CONFIDENT_MATCH)
        if update["memory"].get("attempts"):  # shown to the model apart from the fixes, before its first edit
            detail += f"; {len(update['memory']['attempts'])} failed attempt(s) on this failure shown"
        if update["memory"].get("damaged_skipped"):
            detail += f"; {update['memory']['damaged_skipped']} damaged record(s) skipped (events.jsonl names them)"
    elif node == "diagnosis_search" and update.get("diagnosis"):
        found = update["diagnosis"]["hits"]
        detail = (f"{len(found)} hit(s) for the diagnosis, best {found[0]['score']:.4f} from {found[0]['session_id']}"
                  if found else f"{NO_CONFIDENT_MATCH} for the diagnosis")
    elif node == "replay" and update.get("replay"):
        from astra_memory.rules.replay_candidates import passed_over_lines

        info = update["replay"]
        detail = (f"replayed {info['replayed']}" if info.get("replayed") else info.get("skipped")
                  or "; ".join(f"{a['memory_id']} {a['result']}" for a in info["tried"]))  # whole, never cut
        detail += "".join(f"\n{' ' * 18}{line}" for line in passed_over_lines(info))  # one hit a line, under it
    elif node == "investigate" and update.get("messages"):
        calls = update["messages"][-1].tool_calls
        detail = ", ".join(call_line(c) for c in calls) or "no tool call"
    elif node == "tools" and update.get("messages") and getattr(update["messages"][0], "name", None):
        answered = update["messages"][0]  # the executed call's observation; refusals of extra calls follow
        detail = f"\n{' ' * INDENT}".join(result_lines(str(answered.content), answered.name))
    elif node == "approve":  # nothing asked: edit refuses the call (or ends the run) and says why, next
        detail = (f"{update['approvals'][-1]['decision']} {update['approvals'][-1]['path']}" if update.get("approvals")
                  else "not asked: this edit cannot be made (the next line says why)")
    elif node == "edit" and update.get("edits"):
        detail = update["edits"][-1]["path"]
    elif node == "test" and update.get("test_runs"):
        detail = update["test_runs"][-1].get("outcome", "")
    elif node == "confirm" and update.get("confirm"):
        result = update["confirm"]
        detail = (f"fresh copy: {result['outcome']}" if result.get("passed")
                  else f"fresh copy failed: {result.get('reason') or result.get('outcome')}")
    elif node in ("store", "report"):
        detail = update.get("stored_memory_id") or update.get("status") or ""
    return detail or _said(update)


def _said(update: dict) -> str:
    """A node's own words when it has no summary above: a reason it ended with, or its observation
    (a refused call's reason), first line, whole."""
    if update.get("reason"):
        return str(update["reason"])
    messages = update.get("messages") or []
    if messages and isinstance(getattr(messages[-1], "content", None), str):
        lines = messages[-1].content.strip().splitlines()
        return lines[0] if lines else ""
    return ""


class SessionProgress:
    """``on_update`` and ``on_start`` for session/run.py's ``_drive``, printing to ``err``."""

    def __init__(self, err: Console, *, quiet: bool = False) -> None:
        self.err, self.quiet = err, quiet
        self._live: Progress | None = None

    def __call__(self, node: str, update: dict[str, Any]) -> None:
        self.started(None)
        if not self.quiet:
            detail = node_detail(node, update)
            if self.err.is_terminal:  # a person reads it: broken between words; logs and pipes keep lines whole
                detail = fold(detail, first=INDENT + max(0, len(node) - 13), indent=INDENT, width=self.err.width)
            self.err.print(f"  [dim]·[/dim] {node:<13} {lit(detail)}", highlight=False)

    def started(self, node: str | None) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None
        if node is None or self.quiet or not self.err.is_terminal:
            return
        self._live = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                              console=self.err, transient=True)
        self._live.add_task(f"{node}: {RUNNING.get(node, 'running')}", total=None)
        self._live.start()

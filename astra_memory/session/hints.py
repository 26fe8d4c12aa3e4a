"""The command lines we tell a user to type next: each one must work as printed."""

from __future__ import annotations

SCRIPTED = "scripted"  # the offline model (models/factory.py): the only one that costs nothing


def resume_command(thread_id: str, model: str | None, *flags: str) -> str:
    """``astra-memory resume ID`` with what it needs to run. A live model's cost approval is never
    carried over from the process that gave it (every process approves again: context.py), so a live
    session's hint carries ``--approve-live-cost``; its budget and other knobs are the session's own,
    kept by ``resume``."""
    live = () if model in (None, "", SCRIPTED) else ("--approve-live-cost",)
    return " ".join(("astra-memory resume", thread_id, *flags, *live))

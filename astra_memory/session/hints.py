"""The command lines we tell a user to type next: each one must work as printed."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

SCRIPTED = "scripted"  # the offline model (models/factory.py): the only one that costs nothing


def resume_command(thread_id: str, model: str | None, *flags: str) -> str:
    """``astra-memory resume ID`` with what it needs to run. A live model's cost approval is never
    carried over from the process that gave it (every process approves again: context.py), so a live
    session's hint carries ``--approve-live-cost``; its budget and other knobs are the session's own,
    kept by ``resume``."""
    live = () if model in (None, "", SCRIPTED) else ("--approve-live-cost",)
    return " ".join((program(), "resume", thread_id, *flags, *live))


def program(*, quoted: bool = True) -> str:
    """How to type this installation's ``astra-memory``: the bare name when the shell's PATH finds this
    very program, else the console script's full path (shell-quoted unless ``quoted`` is false).
    After ``scripts/demo.sh`` the venv is not activated, so a bare ``astra-memory`` is not found (or
    finds another installation)."""
    script = Path(sys.executable).parent / "astra-memory"
    if not script.is_file():  # not run from an installed environment: the name is all we know
        return "astra-memory"
    found = shutil.which("astra-memory")
    if found and Path(found).resolve() == script.resolve():
        return "astra-memory"
    return shlex.quote(str(script)) if quoted else str(script)

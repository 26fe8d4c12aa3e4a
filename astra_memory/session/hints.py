"""The command lines we tell a user to type next: each one must work as printed."""

from __future__ import annotations

import shlex
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

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


def rerun_words(task: Mapping[str, Any] | None, knobs: Mapping[str, Any]) -> list[str]:
    """``astra-memory run`` again on the same project as a new session, word by word, with each knob
    of ``knobs`` that has a flag and is not its default (a finished session is never continued: a
    raised limit applies to a new one)."""
    from astra_memory.context import KNOBS, default_of
    from astra_memory.models.advice import rerun_command

    task = task or {}
    words = [program(quoted=False), *shlex.split(rerun_command(task))[1:]]
    if task.get("python"):
        words += ["--python", str(task["python"])]
    for name, value in knobs.items():
        flag = KNOBS[name].metadata.get("cli") if name in KNOBS else None
        if flag is None or value is None or name == "approve_live_cost" or value == default_of(name):
            continue
        decls = flag.decls.split("/")
        if not isinstance(value, bool):
            words += [decls[0], str(value)]
        elif value or len(decls) > 1:
            words.append(decls[0] if value else decls[-1])
    if knobs.get("model") not in (None, "", SCRIPTED):
        words.append("--approve-live-cost")
    return words

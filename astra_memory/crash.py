"""Deterministic kill and hold points for crash tests.

``ASTRA_CRASH_AT=edit:applied`` makes the process SIGKILL itself the first time it reaches that
point (``name:#N``: the N-th time it is reached); ``ASTRA_CRASH_SIGNAL=INT`` sends SIGINT instead
(a Ctrl-C, raised as KeyboardInterrupt). ``ASTRA_HOLD_AT=point`` with ``ASTRA_HOLD_FILE=path``
makes it stop there instead: it creates ``path.reached`` and waits until ``path`` exists (at most
``HOLD_MAX_S``), so a test can act while a runner is provably at that point. ``ASTRA_CRASH_TRACE=path``
appends the name of every point the process reaches, one a line, before it acts on it: a test can then
prove where a kill landed (tests/test_crash_matrix.py chains kills over resumed processes, whose counts
start again at 1). Production runs never set them; the crash matrix does, so that every kill lands exactly where it is meant to, not wherever
a sleep happened to end.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HOLD_MAX_S = 120.0
_seen: Counter[str] = Counter()


def armed() -> bool:
    """Whether a kill or hold point is set for this process (the crash tests' processes only)."""
    return bool(os.environ.get("ASTRA_CRASH_AT") or os.environ.get("ASTRA_HOLD_AT") or os.environ.get("ASTRA_CRASH_TRACE"))


def watch_writes(saver: Any) -> None:
    """Add kill points to a LangGraph checkpointer (only when ``armed()``):

    - ``writes:NODE``: a node's writes are saved and the checkpoint that follows them is not, the
      window in which a killed thread has pending writes and no next checkpoint
      (``session/run.py: finished``);
    - ``inside:put`` and ``inside:writes``: inside the write of a checkpoint or of a node's writes,
      its statements sent and not yet committed (SQLite's ``cursor``, PostgreSQL's pipelined
      ``_cursor``), so a kill there leaves a transaction the database must roll back."""
    if saver is None or not armed():
        return
    put, put_writes = saver.put, saver.put_writes
    writing = threading.local()  # LangGraph saves a checkpoint and a node's writes from different threads

    def put_then_point(*args: Any, **kwargs: Any) -> Any:
        writing.what = "put"
        try:
            return put(*args, **kwargs)
        finally:
            writing.what = None

    def put_writes_then_point(config: Any, writes: Any, task_id: str, task_path: str = "") -> None:
        writing.what = "writes"
        try:
            put_writes(config, writes, task_id, task_path)
        finally:
            writing.what = None
        parts = str(task_path).lstrip("~").split(", ")  # LangGraph's "~__pregel_pull, investigate"
        node = parts[1] if len(parts) > 1 else parts[0] or "?"
        crash_point(f"writes:{node}")

    saver.put, saver.put_writes = put_then_point, put_writes_then_point
    name, flag = ("cursor", "transaction") if hasattr(saver, "cursor") else ("_cursor", "pipeline")
    cursor = getattr(saver, name, None)
    if cursor is None:
        return

    @contextmanager
    def cursor_with_point(**kwargs: Any) -> Iterator[Any]:
        with cursor(**kwargs) as cur:
            yield cur
            what = getattr(writing, "what", None)
            if what and kwargs.get(flag, name == "cursor"):  # SQLite's cursor commits by default
                crash_point(f"inside:{what}")

    setattr(saver, name, cursor_with_point)


def _matches(wanted: str, name: str) -> bool:
    point, _, nth = wanted.partition(":#")
    return point == name and _seen[name] == int(nth or 1)


def crash_point(name: str) -> None:
    wanted, hold, trace = (os.environ.get(k) for k in ("ASTRA_CRASH_AT", "ASTRA_HOLD_AT", "ASTRA_CRASH_TRACE"))
    if not wanted and not hold and not trace:
        return
    _seen[name] += 1
    if trace:
        with open(trace, "a", encoding="utf-8") as out:
            out.write(name + "\n")
    if hold and _matches(hold, name):
        release = Path(os.environ["ASTRA_HOLD_FILE"])
        Path(f"{release}.reached").write_text(str(os.getpid()))
        deadline = time.monotonic() + HOLD_MAX_S
        while not release.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
    if wanted and _matches(wanted, name):
        sig = getattr(signal, "SIG" + os.environ.get("ASTRA_CRASH_SIGNAL", "KILL").upper())
        os.kill(os.getpid(), sig)
        time.sleep(1)  # a SIGINT is raised as KeyboardInterrupt at the next bytecode, inside this sleep

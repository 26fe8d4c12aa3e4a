"""Deterministic kill and hold points for crash tests.

``ASTRA_CRASH_AT=edit:applied`` makes the process SIGKILL itself the first time it reaches that
point (``name:#N``: the N-th time it is reached); ``ASTRA_CRASH_SIGNAL=INT`` sends SIGINT instead
(a Ctrl-C, raised as KeyboardInterrupt). ``ASTRA_HOLD_AT=point`` with ``ASTRA_HOLD_FILE=path``
makes it stop there instead: it creates ``path.reached`` and waits until ``path`` exists (at most
``HOLD_MAX_S``), so a test can act while a runner is provably at that point. Production runs never
set them; the crash matrix does, so that every kill lands exactly where it is meant to, not wherever
a sleep happened to end.
"""

from __future__ import annotations

import os
import signal
import time
from collections import Counter
from pathlib import Path

HOLD_MAX_S = 120.0
_seen: Counter[str] = Counter()


def _matches(wanted: str, name: str) -> bool:
    point, _, nth = wanted.partition(":#")
    return point == name and _seen[name] == int(nth or 1)


def crash_point(name: str) -> None:
    wanted, hold = os.environ.get("ASTRA_CRASH_AT"), os.environ.get("ASTRA_HOLD_AT")
    if not wanted and not hold:
        return
    _seen[name] += 1
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

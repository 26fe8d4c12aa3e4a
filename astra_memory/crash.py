"""Deterministic kill points for crash tests.

``ASTRA_CRASH_AT=edit:applied`` makes the process SIGKILL itself the first time it reaches that
point (``name:#N``: the N-th time it is reached). Production runs never set it; the crash matrix does, so
that every kill lands exactly where it is meant to, not wherever a sleep happened to end.
"""

from __future__ import annotations

import os
import signal
from collections import Counter

_seen: Counter[str] = Counter()


def crash_point(name: str) -> None:
    wanted = os.environ.get("ASTRA_CRASH_AT")
    if not wanted:
        return
    _seen[name] += 1
    point, _, nth = wanted.partition(":#")
    if point == name and _seen[name] == int(nth or 1):
        os.kill(os.getpid(), signal.SIGKILL)

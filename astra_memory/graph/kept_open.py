"""What the graph Studio serves opens once per server process and keeps open: the CLI's fix memory
and cost ledger (graph/studio.py, graph/studio_cost.py). Closed when the process exits."""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager, ExitStack
from typing import Any


class KeptOpen:
    """Context managers entered once per key (the settings they were opened with) and kept open."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[Hashable, Any] = {}
        self._stack = ExitStack()
        atexit.register(self._stack.close)

    def get(self, key: Hashable, opener: Callable[[], AbstractContextManager]) -> Any:
        with self._lock:
            if key not in self._open:
                self._open[key] = self._stack.enter_context(opener())
            return self._open[key]


KEPT = KeptOpen()

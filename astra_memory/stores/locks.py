"""One writer at a time for a record's read-modify-write (adding a confirmation, changing a status).

Why: two sessions confirming the same fix at once both read the record, both append their
confirmation and both write; without a lock the second write loses the first confirmation.
LangGraph's stores have no compare-and-set, so the writers take a lock around get + put:

- in one process, a process-wide ``threading.Lock`` (every writer thread of this process queues
  here first, so at most one pooled connection per process ever waits on the database lock; a
  waiter holding the pool's last connection could otherwise starve the lock's holder);
- across processes, the lock the store's backend offers (``StoreNeeds.records_lock``,
  stores/store_needs.py): a file lock beside the SQLite memory file (backends/sqlite/store.py),
  advisory locks on PostgreSQL (backends/postgres/store.py), a file lock in the data folder
  for Actian VectorAI DB (backends/actian/store.py); none for a store no backend opened.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from langgraph.store.base import BaseStore

from astra_memory.stores.store_needs import needs_of

LOCK_TIMEOUT_S = 60.0  # how long a backend's cross-process lock waits before it says who held it
_process_lock = threading.RLock()


@contextmanager
def record_lock(store: BaseStore, key: str) -> Iterator[None]:
    """Hold the lock for record ``key`` of ``store`` (see the module docstring)."""
    with records_lock(store, [key]):
        yield


@contextmanager
def records_lock(store: BaseStore, keys: list[str]) -> Iterator[None]:
    """Hold the locks of every record in ``keys`` at once (``memory import`` merges a whole file)."""
    with _process_lock, needs_of(store).records_lock(keys):
        yield

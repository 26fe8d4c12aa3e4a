"""One writer at a time for a record's read-modify-write (adding a confirmation, changing a status).

Why: two sessions confirming the same fix at once both read the record, both append their
confirmation and both write; without a lock the second write loses the first confirmation.
LangGraph's stores have no compare-and-set, so the writers take a lock around get + put:

- in one process, a process-wide ``threading.Lock`` (every writer thread of this process queues
  here first, so at most one pooled connection per process ever waits on the database lock; a
  waiter holding the pool's last connection could otherwise starve the lock's holder);
- SQLite: a file lock beside the memory file (``<file>.record-lock``, ``filelock``), across processes;
- PostgreSQL: a session-level advisory lock chosen by the record id (one of ``LOCK_BUCKETS``), on
  one pooled connection, across processes and machines.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from filelock import FileLock, Timeout
from langgraph.store.base import BaseStore

from astra_memory.errors import ConfigurationError

LOCK_TIMEOUT_S = 60.0
_process_lock = threading.RLock()


def _sqlite_file(store) -> str | None:
    rows = store.conn.execute("PRAGMA database_list").fetchall()
    for row in rows:
        if row[1] == "main" and row[2]:
            return row[2]
    return None  # an in-memory database: one process, the thread lock is enough


@contextmanager
def _sqlite_lock(path: str) -> Iterator[None]:
    lock = FileLock(f"{path}.record-lock", timeout=LOCK_TIMEOUT_S)
    try:
        lock.acquire()
    except Timeout:
        raise ConfigurationError(f"{path}: another process held the record lock for {LOCK_TIMEOUT_S:.0f} s") from None
    try:
        yield
    finally:
        lock.release()


# Record locks on PostgreSQL are advisory locks in a fixed range of buckets: an import that locks every
# record of its file then holds at most LOCK_BUCKETS locks, inside PostgreSQL's shared lock table
# (max_locks_per_transaction x max_connections: 6,400 by default), whatever the file's size. Two
# records in one bucket only wait for each other briefly. Distinct from the set-up and ledger keys.
LOCK_BUCKETS = 1_024
RECORD_LOCK_BASE = 0x6173747261 << 16  # "astra", shifted clear of pgconn's and the ledger's keys


def advisory_key(key: str) -> int:
    """The pg_advisory_lock key of a record id: one of LOCK_BUCKETS keys."""
    try:
        value = uuid.UUID(key).int
    except ValueError:
        value = uuid.uuid5(uuid.NAMESPACE_OID, key).int
    return RECORD_LOCK_BASE + value % LOCK_BUCKETS


@contextmanager
def _postgres_lock(store, keys: list[str]) -> Iterator[None]:
    from astra_memory.stores.postgres import store_connection

    lock_keys = sorted({advisory_key(k) for k in keys})  # one order for every taker: no deadlock
    with store_connection(store) as conn:
        conn.execute("SELECT pg_advisory_lock(k) FROM unnest(%s::bigint[]) AS k ORDER BY k", (lock_keys,))
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(k) FROM unnest(%s::bigint[]) AS k", (lock_keys,))


@contextmanager
def record_lock(store: BaseStore, key: str) -> Iterator[None]:
    """Hold the lock for record ``key`` of ``store`` (see the module docstring)."""
    with records_lock(store, [key]):
        yield


@contextmanager
def records_lock(store: BaseStore, keys: list[str]) -> Iterator[None]:
    """Hold the locks of every record in ``keys`` at once (``memory import`` merges a whole file)."""
    from langgraph.store.sqlite import SqliteStore

    with _process_lock:
        if isinstance(store, SqliteStore):
            path = _sqlite_file(store)
            if path is None:
                yield
                return
            with _sqlite_lock(path):  # one lock per memory file: it covers every record
                yield
            return
        if type(store).__name__ == "PostgresStore" and keys:
            with _postgres_lock(store, keys):
                yield
            return
        yield  # other stores (Actian adapter, in-memory): this process only

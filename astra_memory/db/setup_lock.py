"""One process at a time through the set-up of a SQLite file (journal mode, schema migrations).

Why: processes opening one *fresh* file at once race in two places SQLite's busy timeout does not
cover. Switching a new file to WAL can fail at once with "database is locked", and
``SqliteStore.setup()`` (langgraph-checkpoint-sqlite 3.1) reads the migration version and then
applies migrations in separate statements, so two processes both apply migration 0 and one fails
on ``UNIQUE constraint failed: vector_migrations.v`` (both seen in CI with 8 processes). A file
lock beside the database (``<file>.setup-lock``, via ``filelock``) serializes the open; the
queries after it rely on WAL and the busy timeout as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from astra_memory.db.datafiles import explain
from astra_memory.errors import ConfigurationError

SETUP_LOCK_TIMEOUT_S = 60.0


@contextmanager
def setup_lock(path: str | Path) -> Iterator[None]:
    """Hold ``<path>.setup-lock`` while opening and setting up the SQLite file ``path``."""
    lock_path = f"{path}.setup-lock"
    lock = FileLock(lock_path, timeout=SETUP_LOCK_TIMEOUT_S)
    try:
        lock.acquire()
    except Timeout:
        raise ConfigurationError(f"{path}: another process held its set-up lock ({lock_path}) for "
                                 f"{SETUP_LOCK_TIMEOUT_S:.0f} s; is a process stuck opening it?") from None
    except OSError as exc:  # a read-only or full ASTRA_HOME
        raise explain(exc, lock_path, action="create") from None
    try:
        yield
    finally:
        lock.release()

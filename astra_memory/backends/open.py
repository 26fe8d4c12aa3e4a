"""Where the checkpoints and the fix memory live: one decision, made here.

By default both are SQLite files under ``ASTRA_HOME`` (no server, one developer). One setting,
``ASTRA_DATABASE_URL=postgresql://...`` (or ``astra-memory --database-url``), moves *both* to one
PostgreSQL database: LangGraph's ``PostgresSaver`` for checkpoints and ``PostgresStore`` with a
pgvector HNSW index for the memory, so a team's agents on many machines share one memory and any
worker can resume any thread. Both backends get the same embeddings object and the same index
config, and FixMemory behaves the same on both (tests/test_memory.py runs on each).

The PostgreSQL modules import psycopg lazily, on that path only: SQLite users need none of it.

Each memory backend is a package beside this module (``sqlite/``, ``postgres/``, ``actian/``:
backends/base.py says what each offers); ``MEMORY_OPENERS`` is their table. A target (a
``memory migrate`` end) is opened by the first opener that claims it.

``ASTRA_VECTORAI_URL=host:port`` moves the fix memory (only) to Actian VectorAI DB
(``backends/actian/store.py``, the ``actian`` extra); checkpoints and the cost ledger stay on SQLite or
PostgreSQL. UNVERIFIED: no VectorAI DB server can run on the machines this was built on.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from astra_memory.backends import actian, postgres, sqlite
from astra_memory.backends.base import Backend, MemoryOpener
from astra_memory.checkpoints import open_checkpointer
from astra_memory.checkpoints import postgres as pg_checkpoints
from astra_memory.checkpoints.leases import PostgresThreadTables, open_sqlite_thread_tables
from astra_memory.checkpoints.leases import setup_postgres as setup_thread_tables
from astra_memory.costs.ledger import ledger_path_for, open_sqlite_ledger
from astra_memory.costs.ledger_postgres import PostgresCostLedger, setup_ledger
from astra_memory.db import postgres as pgconn
from astra_memory.db.postgres import redact_url
from astra_memory.errors import ConfigurationError
from astra_memory.settings import Settings

DATABASE_URL_SETTING = "ASTRA_DATABASE_URL"
VECTORAI_URL_SETTING = "ASTRA_VECTORAI_URL"
DATA_FOLDER_SETTING = "the data folder: ASTRA_HOME, else the default"

# The memory backends, one line each; the first that claims a target opens it (SQLite: any path).
MEMORY_OPENERS: tuple[MemoryOpener, ...] = (
    postgres.OPENER,
    actian.OPENER,
    sqlite.OPENER,
)

__all__ = ["DATABASE_URL_SETTING", "MEMORY_OPENERS", "VECTORAI_URL_SETTING", "Backend", "open_backend",
           "open_cost_ledger", "open_memory_store"]


@contextmanager
def open_backend(settings: Settings, embeddings: Embeddings | None, *, checkpointer: bool = True,
                 store: bool = True, read_only: bool = False) -> Iterator[Backend]:
    """Open the backend the settings name; schema set-up runs (idempotently) on first use.

    ``read_only`` (SQLite): existing files opened for reading only, nothing set up, so the
    read-only commands work on a read-only ASTRA_HOME (a file that does not exist yet is created
    as usual). ``store=False``: the checkpoints alone (``threads``)."""
    if settings.vectorai_url and store:
        with _open_vectorai(settings, embeddings, checkpointer=checkpointer, read_only=read_only) as backend:
            yield backend
        return
    with _open_sql_backend(settings, embeddings, checkpointer=checkpointer, store=store,
                           read_only=read_only) as backend:
        yield backend


@contextmanager
def _open_vectorai(settings: Settings, embeddings: Embeddings, *, checkpointer: bool,
                   read_only: bool) -> Iterator[Backend]:
    """The fix memory on VectorAI DB; the checkpointer (when asked for) where it would be otherwise."""
    with actian.open_memory(settings.vectorai_url, embeddings, setting=VECTORAI_URL_SETTING,
                            lock_dir=settings.home) as memory:
        if not checkpointer:
            yield memory
            return
        with _open_sql_backend(settings, embeddings, checkpointer=True, store=False, read_only=read_only) as base:
            yield replace(base, kind=f"{base.kind}+{memory.kind}", store=memory.store, memory_text=memory.memory_text,
                          where=f"{base.where}; memory on {actian.TITLE} {settings.vectorai_url}")


@contextmanager
def _open_sql_backend(settings: Settings, embeddings: Embeddings | None, *, checkpointer: bool, store: bool,
                      read_only: bool) -> Iterator[Backend]:
    if settings.database_url:
        with _open_postgres(settings.database_url, DATABASE_URL_SETTING, embeddings,
                            checkpointer=checkpointer, pool_size=settings.database_pool_size) as backend:
            yield backend
        return

    with ExitStack() as stack:
        saver = threads = None
        memory = Backend("sqlite", None, None, "")
        if checkpointer:
            ro = read_only and settings.checkpoint_path.is_file()
            saver = stack.enter_context(open_checkpointer(settings.checkpoint_path, read_only=ro))
            threads = stack.enter_context(open_sqlite_thread_tables(settings.checkpoint_path, read_only=ro))
        if store:
            ro = read_only and settings.memory_path.is_file()
            memory = stack.enter_context(sqlite.open_memory(settings.memory_path, embeddings,
                                                            setting=DATA_FOLDER_SETTING, read_only=ro))
        yield replace(memory, checkpointer=saver, threads=threads,
                      where=str(settings.home if checkpointer else settings.memory_path))


def memory_opener(target: str | Path, *, setting: str) -> MemoryOpener:
    """The backend that claims ``target`` (the first in ``MEMORY_OPENERS``), or a message naming them all."""
    for opener in MEMORY_OPENERS:
        if opener.claims(str(target)):
            return opener
    *others, last = [opener.example for opener in MEMORY_OPENERS]
    raise ConfigurationError(f"{setting} {redact_url(str(target))!r}: give {', '.join(others)} or {last}")


@contextmanager
def open_memory_store(target: str | Path, embeddings: Embeddings, *, setting: str,
                      must_exist: bool = False, pool_size: int = 4) -> Iterator[Backend]:
    """The memory store at a target of any backend: a SQLite path, a ``postgresql://`` URL, a
    ``vectorai://host:port`` (``memory migrate``'s two ends, the tests' conformance fixture)."""
    opener = memory_opener(target, setting=setting)
    with opener.open(target, embeddings, setting=setting, must_exist=must_exist, pool_size=pool_size) as backend:
        yield backend


@contextmanager
def _open_postgres(url: str, setting: str, embeddings: Embeddings, *, checkpointer: bool,
                   pool_size: int) -> Iterator[Backend]:
    steps = [pg_checkpoints.setup_saver, setup_ledger, setup_thread_tables] if checkpointer else []
    with postgres.open_pool_store(url, setting, embeddings, steps=steps, pool_size=pool_size) as (pool, store):
        saver = pg_checkpoints.make_saver(pool) if checkpointer else None
        where = redact_url(url)
        yield Backend("postgres", saver, store, where, pool, PostgresThreadTables(pool) if checkpointer else None,
                      memory_text=f"{postgres.TITLE} {where} ({setting})")


@contextmanager
def open_cost_ledger(settings: Settings, backend: Backend | None = None) -> Iterator[Any]:
    """The cost ledger beside the checkpoints: ``ledger.sqlite`` in ASTRA_HOME, or the same PostgreSQL.

    Without an opened ``backend`` (the `cost` and `demo` commands) it opens only the ledger.
    """
    if settings.database_url:

        if backend is not None and backend.pool is not None:
            yield PostgresCostLedger(backend.pool)
            return

        url = pgconn.check_url(settings.database_url, DATABASE_URL_SETTING)
        pgconn.prepare(url, DATABASE_URL_SETTING, [setup_ledger])
        with pgconn.open_pool(url, DATABASE_URL_SETTING, size=2) as pool:
            yield PostgresCostLedger(pool)
        return

    with open_sqlite_ledger(ledger_path_for(settings.checkpoint_path)) as ledger:
        yield ledger


"""Where the checkpoints and the fix memory live: one decision, made here.

By default both are SQLite files under ``ASTRA_HOME`` (no server, one developer). One setting,
``ASTRA_DATABASE_URL=postgresql://...`` (or ``astra-memory --database-url``), moves *both* to one
PostgreSQL database: LangGraph's ``PostgresSaver`` for checkpoints and ``PostgresStore`` with a
pgvector HNSW index for the memory, so a team's agents on many machines share one memory and any
worker can resume any thread. Both backends get the same embeddings object and the same index
config, and FixMemory behaves the same on both (tests/test_memory.py runs on each).

The PostgreSQL modules import psycopg lazily, on that path only: SQLite users need none of it.

``ASTRA_VECTORAI_URL=host:port`` moves the fix memory (only) to Actian VectorAI DB
(``stores/actian.py``, the ``actian`` extra); checkpoints and the cost ledger stay on SQLite or
PostgreSQL. UNVERIFIED: no VectorAI DB server can run on the machines this was built on.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings
from langgraph.store.base import BaseStore

from astra_memory.checkpoints import open_checkpointer
from astra_memory.checkpoints import postgres as pg_checkpoints
from astra_memory.checkpoints.leases import (
    PostgresThreadTables,
    ThreadTables,
    open_sqlite_thread_tables,
)
from astra_memory.checkpoints.leases import setup_postgres as setup_thread_tables
from astra_memory.costs.ledger import ledger_path_for, open_sqlite_ledger
from astra_memory.costs.ledger_postgres import PostgresCostLedger, setup_ledger
from astra_memory.db import postgres as pgconn
from astra_memory.db.postgres import is_postgres_url, redact_url
from astra_memory.errors import ConfigurationError
from astra_memory.settings import Settings
from astra_memory.stores import postgres as pg_store
from astra_memory.stores.actian import open_actian_store
from astra_memory.stores.sqlite import open_sqlite_store

DATABASE_URL_SETTING = "ASTRA_DATABASE_URL"
VECTORAI_URL_SETTING = "ASTRA_VECTORAI_URL"


@dataclass
class Backend:
    """An opened checkpointer (None when only the memory was asked for) and memory store."""

    kind: str  # "sqlite" or "postgres"
    checkpointer: Any
    store: BaseStore
    where: str  # human-readable location, password redacted
    pool: Any = None  # the psycopg ConnectionPool on PostgreSQL (shared with the cost ledger)
    threads: ThreadTables | None = None  # leases and the thread registry, beside the checkpoints


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
    with open_actian_store(embeddings, settings.vectorai_url, setting=VECTORAI_URL_SETTING) as store:
        if not checkpointer:
            yield Backend("vectorai", None, store, settings.vectorai_url)
            return
        with _open_sql_backend(settings, embeddings, checkpointer=True, store=False, read_only=read_only) as base:
            yield replace(base, kind=f"{base.kind}+vectorai", store=store,
                          where=f"{base.where}; memory on VectorAI DB {settings.vectorai_url}")


@contextmanager
def _open_sql_backend(settings: Settings, embeddings: Embeddings | None, *, checkpointer: bool, store: bool,
                      read_only: bool) -> Iterator[Backend]:
    if settings.database_url:
        with _open_postgres(settings.database_url, DATABASE_URL_SETTING, embeddings,
                            checkpointer=checkpointer, pool_size=settings.database_pool_size) as backend:
            yield backend
        return

    with ExitStack() as stack:
        saver = threads = memory = None
        if checkpointer:
            ro = read_only and settings.checkpoint_path.is_file()
            saver = stack.enter_context(open_checkpointer(settings.checkpoint_path, read_only=ro))
            threads = stack.enter_context(open_sqlite_thread_tables(settings.checkpoint_path, read_only=ro))
        if store:
            ro = read_only and settings.memory_path.is_file()
            memory = stack.enter_context(open_sqlite_store(settings.memory_path, embeddings, read_only=ro))
        yield Backend("sqlite", saver, memory, str(settings.home if checkpointer else settings.memory_path),
                      threads=threads)


@contextmanager
def open_memory_store(target: str | Path, embeddings: Embeddings, *, setting: str,
                      must_exist: bool = False, pool_size: int = 4) -> Iterator[Backend]:
    """The memory store at a SQLite path or a ``postgresql://`` URL (``memory migrate``'s two ends)."""
    if is_postgres_url(str(target)):
        with _open_postgres(str(target), setting, embeddings, checkpointer=False, pool_size=pool_size) as backend:
            yield backend
        return
    if "://" in str(target):
        raise ConfigurationError(f"{setting} {redact_url(str(target))!r}: give a SQLite file path or a "
                                 "postgresql:// URL")
    path = Path(target).expanduser()
    if must_exist and not path.is_file():
        raise ConfigurationError(f"{setting} {path}: no such memory file")

    with open_sqlite_store(path, embeddings) as store:
        yield Backend("sqlite", None, store, str(path))


@contextmanager
def _open_postgres(url: str, setting: str, embeddings: Embeddings, *, checkpointer: bool,
                   pool_size: int) -> Iterator[Backend]:

    pgconn.check_url(url, setting)

    steps = [lambda conn: pg_store.setup_store(conn, embeddings)]
    if checkpointer:
        steps += [pg_checkpoints.setup_saver, setup_ledger, setup_thread_tables]
    pgconn.prepare(url, setting, steps)
    with pgconn.open_pool(url, setting, size=pool_size, configure=pg_store.configure_connection) as pool:
        saver = pg_checkpoints.make_saver(pool) if checkpointer else None
        yield Backend("postgres", saver, pg_store.make_store(pool, embeddings), redact_url(url), pool,
                      PostgresThreadTables(pool) if checkpointer else None)


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


"""The fix memory on PostgreSQL with pgvector (a team's shared memory): its opener.

``store.py`` (LangGraph's PostgresStore, its set-up and record locks) imports psycopg; it is imported
here only once a ``postgresql://`` URL is opened, so SQLite users need none of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from langchain_core.embeddings import Embeddings

from astra_memory.backends.base import Backend, MemoryOpener
from astra_memory.db import postgres as pgconn
from astra_memory.db.postgres import is_postgres_url, redact_url

TITLE = "PostgreSQL"


@contextmanager
def open_pool_store(url: str, setting: str, embeddings: Embeddings, *, steps: list[Callable[[Any], None]] = (),
                    pool_size: int = 4) -> Iterator[tuple[Any, Any]]:
    """(pool, memory store) on the database at ``url``: the store's set-up, then ``steps`` (the checkpoints'
    and the ledger's), run once, idempotently; every pooled connection configured for the HNSW search."""
    pgconn.check_url(url, setting)
    from astra_memory.backends.postgres import store as pg_store

    pgconn.prepare(url, setting, [lambda conn: pg_store.setup_store(conn, embeddings), *steps])
    with pgconn.open_pool(url, setting, size=pool_size, configure=pg_store.configure_connection) as pool:
        yield pool, pg_store.make_store(pool, embeddings)


@contextmanager
def open_memory(target: str, embeddings: Embeddings, *, setting: str, must_exist: bool = False,
                pool_size: int = 4) -> Iterator[Backend]:
    """The memory alone (``must_exist`` has no meaning for a server: set-up is idempotent)."""
    with open_pool_store(str(target), setting, embeddings, pool_size=pool_size) as (pool, store):
        where = redact_url(str(target))
        yield Backend("postgres", None, store, where, pool, memory_text=f"{TITLE} {where} ({setting})")


OPENER = MemoryOpener("postgres", claims=is_postgres_url, open=open_memory, example="a postgresql:// URL")

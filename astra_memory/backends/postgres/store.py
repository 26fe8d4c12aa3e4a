"""The team memory backend: LangGraph's PostgresStore on pgvector (HNSW index, cosine, 384-d).

Same index configuration as the SQLite store (same embeddings object, same embedded field), plus
the pgvector index. Differences from SqliteStore that FixMemory relies on, checked against
langgraph-checkpoint-postgres 3.2 and covered by the conformance suite (tests/test_memory.py):

- ``delete`` removes the vector row too (``store_vectors`` has a foreign key ``ON DELETE CASCADE``);
  SqliteStore leaves it behind, which is why the SQLite backend purges vectors there.
- ``created_at`` survives an overwrite (``ON CONFLICT DO UPDATE`` leaves it); FixMemory keeps the
  record's own ``timestamp`` anyway, so both backends report the first-confirmed time.
- Scores are cosine similarity, ``1 - (embedding <=> query)``, as on SQLite (``1 - vec_distance_cosine``).
- Filters compare JSON values exactly (``value->'error_type' = '"X"'::jsonb``), as on SQLite.
- The store reads ``fields`` (SqliteStore 3.1 reads ``text_fields``); the config carries both.

Approximate search: an HNSW scan returns at most ``hnsw.ef_search`` candidates before the
store's filters (namespace, ``error_type``) are applied, so a selective filter could return fewer
hits than exist. Every pooled connection therefore turns on pgvector's iterative index scan
(``hnsw.iterative_scan = relaxed_order``), which keeps scanning until the LIMIT is met, and raises
``ef_search`` for recall (measured by ``astra_memory.bench.perf_postgres``).

Record locks (``PostgresMemoryStore.records_lock``, backends/base.py): session-level advisory locks
chosen by the record id (one of ``LOCK_BUCKETS``), on one pooled connection, across processes and
machines. This module imports psycopg (through LangGraph's PostgresStore): the package's opener
(``backends/postgres/__init__.py``) imports it only on the PostgreSQL path, so SQLite users need none of it.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from langchain_core.embeddings import Embeddings
from langgraph.checkpoint.postgres import _internal
from langgraph.store.postgres import PostgresStore

from astra_memory.backends.base import MemoryBackend
from astra_memory.backends.sqlite.store import index_config as sqlite_index_config
from astra_memory.errors import ConfigurationError
from astra_memory.stores.embeddings import DIMS

HNSW_M = 16
HNSW_EF_CONSTRUCTION = 64
HNSW_EF_SEARCH = 100


def index_config(embeddings: Embeddings) -> dict:
    """The SQLite store's index config plus the pgvector HNSW index (cosine operator class)."""
    return {
        **sqlite_index_config(embeddings),
        "ann_index_config": {"kind": "hnsw", "vector_type": "vector", "m": HNSW_M,
                             "ef_construction": HNSW_EF_CONSTRUCTION},
    }


def configure_connection(conn) -> None:
    """Session settings for every pooled connection (see the module docstring)."""
    conn.execute(f"SET hnsw.ef_search = {int(HNSW_EF_SEARCH)}")
    conn.execute("SET hnsw.iterative_scan = relaxed_order")


def setup_store(conn, embeddings: Embeddings) -> None:
    """Idempotent: the store's migrations (tables, pgvector extension, HNSW index), then a dims check."""
    try:
        PostgresStore(conn, index=index_config(embeddings)).setup()
    except Exception as exc:
        if "vector" in str(exc) and ("extension" in str(exc) or "type" in str(exc)):
            raise ConfigurationError(
                "the PostgreSQL database lacks the pgvector extension and this role cannot create it: "
                f"run `CREATE EXTENSION vector;` as a superuser ({str(exc).splitlines()[0]})"
            ) from None
        raise
    row = conn.execute(
        "SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute "
        "WHERE attrelid = 'store_vectors'::regclass AND attname = 'embedding'"
    ).fetchone()
    if row and row["type"] != f"vector({DIMS})":
        raise ConfigurationError(
            f"this database's memory was created for {row['type']} embeddings, astra uses vector({DIMS}); "
            "use another database (or migrate the records with `astra-memory memory migrate`)"
        )


# Record locks are advisory locks in a fixed range of buckets: an import that locks every record of its
# file then holds at most LOCK_BUCKETS locks, inside PostgreSQL's shared lock table
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


class PostgresMemoryStore(PostgresStore, MemoryBackend):
    """LangGraph's PostgresStore, and what the memory asks of a backend (see the module docstring)."""

    @contextmanager
    def records_lock(self, keys: list[str]) -> Iterator[None]:
        if not keys:
            yield
            return
        lock_keys = sorted({advisory_key(k) for k in keys})  # one order for every taker: no deadlock
        with store_connection(self) as conn:
            conn.execute("SELECT pg_advisory_lock(k) FROM unnest(%s::bigint[]) AS k ORDER BY k", (lock_keys,))
            try:
                yield
            finally:
                conn.execute("SELECT pg_advisory_unlock(k) FROM unnest(%s::bigint[]) AS k", (lock_keys,))

    def record_keys(self, namespace: tuple[str, ...]) -> list[str]:
        with store_connection(self) as conn:
            rows = conn.execute("SELECT key FROM store WHERE prefix = %s ORDER BY key", (".".join(namespace),))
            return [row["key"] for row in rows.fetchall()]

    def stored_vectors(self, namespace: tuple[str, ...], field: str) -> dict[str, list[float]]:
        with store_connection(self) as conn:
            rows = conn.execute(
                "SELECT key, embedding::real[] AS v FROM store_vectors WHERE prefix = %s AND field_name = %s",
                (".".join(namespace), field),
            ).fetchall()
        return {row["key"]: list(row["v"]) for row in rows}


def make_store(pool: Any, embeddings: Embeddings) -> PostgresMemoryStore:
    """The memory's PostgresStore on a connection pool (set-up already done by ``setup_store``)."""
    from astra_memory.stores.record import jsonb_value

    # a damaged row (a jsonb that is a string or a list) is read as one, not a traceback: read_stored
    return PostgresMemoryStore(pool, index=index_config(embeddings), deserializer=jsonb_value)


@contextmanager
def store_connection(store) -> Iterator[Any]:
    """A connection of the PostgresStore's own (its single connection, or one from its pool). The one
    place that reaches langgraph's private ``_internal.get_connection``: if it moves, only this changes."""
    with _internal.get_connection(store.conn) as conn:
        yield conn


def count_vectors(store, prefix: str) -> int:
    with store_connection(store) as conn:
        return conn.execute("SELECT count(*) AS n FROM store_vectors WHERE prefix = %s", (prefix,)).fetchone()["n"]

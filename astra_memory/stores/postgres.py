"""The team memory backend: LangGraph's PostgresStore on pgvector (HNSW index, cosine, 384-d).

Same index configuration as the SQLite store (same embeddings object, same embedded field), plus
the pgvector index. Differences from SqliteStore that FixMemory relies on, checked against
langgraph-checkpoint-postgres 3.2 and covered by the conformance suite (tests/test_memory.py):

- ``delete`` removes the vector row too (``store_vectors`` has a foreign key ``ON DELETE CASCADE``);
  SqliteStore leaves it behind, which is why FixMemory purges vectors there.
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
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from langchain_core.embeddings import Embeddings

from astra_memory.errors import ConfigurationError
from astra_memory.stores.embeddings import DIMS
from astra_memory.stores.sqlite import index_config as sqlite_index_config

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
    from langgraph.store.postgres import PostgresStore

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


def make_store(pool: Any, embeddings: Embeddings):
    """A PostgresStore on a connection pool (set-up already done by ``setup_store``)."""
    from langgraph.store.postgres import PostgresStore

    from astra_memory.stores.record import jsonb_value

    return PostgresStore(pool, index=index_config(embeddings), deserializer=jsonb_value)  # a damaged row: read_stored


@contextmanager
def store_connection(store) -> Iterator[Any]:
    """A connection of the PostgresStore's own (its single connection, or one from its pool). The one
    place that reaches langgraph's private ``_internal.get_connection``: if it moves, only this changes."""
    from langgraph.checkpoint.postgres import _internal

    with _internal.get_connection(store.conn) as conn:
        yield conn


def stored_vectors(store, prefix: str, field: str) -> dict[str, list[float]]:
    """``{key: vector}`` of one embedded field under ``prefix`` (for `memory migrate`)."""
    with store_connection(store) as conn:
        rows = conn.execute(
            "SELECT key, embedding::real[] AS v FROM store_vectors WHERE prefix = %s AND field_name = %s",
            (prefix, field),
        ).fetchall()
    return {row["key"]: list(row["v"]) for row in rows}


def count_vectors(store, prefix: str) -> int:
    with store_connection(store) as conn:
        return conn.execute("SELECT count(*) AS n FROM store_vectors WHERE prefix = %s", (prefix,)).fetchone()["n"]

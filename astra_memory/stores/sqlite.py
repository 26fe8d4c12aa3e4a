"""The embedded memory backend: LangGraph's SqliteStore on one file, searched through sqlite-vec
(candidates chosen in numpy over the same vectors: stores/sqlite_search.py).

This Python's standard ``sqlite3`` may be built without extension loading, which sqlite-vec
needs, so the store's connection is opened with ``pysqlite3`` (a self-contained SQLite build)
whenever the standard module cannot load extensions.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from langchain_core.embeddings import Embeddings
from langgraph.store.base import BaseStore
from langgraph.store.sqlite import SqliteStore

from astra_memory.db.datafiles import check_integrity, explain, sqlite_uri
from astra_memory.db.setup_lock import setup_lock
from astra_memory.errors import ConfigurationError
from astra_memory.stores.embeddings import DIMS
from astra_memory.stores.sqlite_search import MatrixSqliteStore

BUSY_TIMEOUT_S = 30.0
EMBEDDED_FIELD = "embed_text"


def sqlite_module() -> ModuleType:
    """A DB-API sqlite module whose connections can load extensions."""
    if hasattr(sqlite3.Connection, "enable_load_extension"):
        return sqlite3
    try:
        import pysqlite3.dbapi2 as pysqlite3  # type: ignore[import-not-found]
    except ImportError as exc:
        raise ConfigurationError(
            "this Python's sqlite3 cannot load extensions and pysqlite3 is missing: "
            "run `pip install pysqlite3-binary` (the memory needs the sqlite-vec extension)"
        ) from exc
    return pysqlite3


def index_config(embeddings: Embeddings) -> dict:
    # SqliteStore 3.1.x reads `text_fields`, not `fields`; give both so either version embeds
    # the same field. Puts also name the field explicitly (see FixMemory.put_record).
    return {
        "dims": DIMS,
        "embed": embeddings,
        "fields": [EMBEDDED_FIELD],
        "text_fields": [EMBEDDED_FIELD],
        "distance_type": "cosine",
    }


def connect(path: str | Path, *, read_only: bool = False):
    """Open a WAL-mode connection with a busy timeout, so concurrent processes wait, not fail.

    The file's integrity is checked before anything writes to it; ``read_only`` opens an existing
    file for reading only (see ``datafiles.sqlite_uri``)."""
    module = sqlite_module()
    try:
        conn = module.connect(sqlite_uri(path, read_only=read_only), uri=True, check_same_thread=False,
                              isolation_level=None, timeout=BUSY_TIMEOUT_S)
    except module.Error as exc:
        raise explain(exc, path, action="open") from None
    try:
        conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
        check_integrity(conn, path)
        if not read_only:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
    except BaseException as exc:
        conn.close()
        if isinstance(exc, module.Error):
            raise explain(exc, path, action="open") from None
        raise
    return conn


@contextmanager
def open_sqlite_store(path: str | Path, embeddings: Embeddings, *, read_only: bool = False) -> Iterator[SqliteStore]:
    """A set-up SqliteStore on ``path`` with semantic search over the embedded field (its candidates
    chosen in numpy: stores/sqlite_search.py).

    ``read_only``: an existing file, opened for reading only (the `memory list/search/show`
    commands, which then work on a read-only ASTRA_HOME); nothing is set up or purged."""
    if read_only:
        conn = connect(path, read_only=True)
        try:
            store = MatrixSqliteStore(conn, index=index_config(embeddings))
            store.setup()  # on an existing file: only reads (CREATE ... IF NOT EXISTS of tables that exist)
        except Exception as exc:
            conn.close()
            raise explain(exc, path, action="read") from None
    else:
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise explain(exc, Path(path).parent, action="create") from None
        with setup_lock(path):  # a fresh file: WAL switch and migrations, one process at a time
            conn = connect(path)
            try:
                store = MatrixSqliteStore(conn, index=index_config(embeddings))
                store.setup()
                purge_orphan_vectors(store)
            except Exception as exc:
                conn.close()
                if isinstance(exc, ConfigurationError):
                    raise
                raise explain(exc, path, action="set up") from None
    try:
        yield store
    finally:
        conn.close()


def purge_vectors(store: SqliteStore, prefix: str, key: str) -> None:
    """Delete a record's vectors, which SqliteStore.delete leaves behind (no FK cascade)."""
    with store._cursor(transaction=True) as cur:  # the store's own lock and transaction
        cur.execute("DELETE FROM store_vectors WHERE prefix = ? AND key = ?", (prefix, key))


def purge_orphan_vectors(store: SqliteStore) -> int:
    with store._cursor(transaction=True) as cur:
        cur.execute(
            "DELETE FROM store_vectors WHERE NOT EXISTS (SELECT 1 FROM store s "
            "WHERE s.prefix = store_vectors.prefix AND s.key = store_vectors.key)"
        )
        return cur.rowcount or 0


def purge_deleted_vectors(store: BaseStore, namespace: tuple[str, ...], key: str) -> None:
    """After ``store.delete``: remove vectors the backend's own delete leaves behind.

    Only SqliteStore needs it (no foreign-key cascade on ``store_vectors``); PostgresStore's
    cascade and the Actian adapter's point delete already remove them.
    """
    if isinstance(store, SqliteStore):
        purge_vectors(store, ".".join(namespace), key)


def delete_item(store: BaseStore, namespace: tuple[str, ...], key: str) -> bool:
    """Delete one stored item (a fix, an attempt) and its vectors; False if there was none.

    Read raw, never validated: a damaged row (a value that no longer validates as a record) must be
    deletable, or the only way to repair memory would be to edit the file by hand."""
    if store.get(namespace, key) is None:
        return False
    store.delete(namespace, key)
    purge_deleted_vectors(store, namespace, key)
    return True

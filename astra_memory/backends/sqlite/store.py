"""The embedded memory backend: LangGraph's SqliteStore on one file, searched through sqlite-vec
(candidates chosen in numpy over the same vectors: backends/sqlite/search.py).

What the memory asks of it (backends/base.py ``MemoryBackend``): records are locked across processes by
a file lock beside the memory file (``<file>.record-lock``, ``filelock``; one lock per file covers every
record), and a delete purges the record's vectors, which SqliteStore's own delete leaves behind (no
foreign-key cascade on ``store_vectors``). ``memory migrate`` reads its keys and vectors from the
store's own tables.

This Python's standard ``sqlite3`` may be built without extension loading, which sqlite-vec
needs, so the store's connection is opened with ``pysqlite3`` (a self-contained SQLite build)
whenever the standard module cannot load extensions.
"""

from __future__ import annotations

import sqlite3
import struct
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from types import ModuleType

from filelock import FileLock, Timeout
from langchain_core.embeddings import Embeddings
from langgraph.store.sqlite import SqliteStore

from astra_memory.backends.base import MemoryBackend
from astra_memory.backends.sqlite.search import MatrixSqliteStore
from astra_memory.db.datafiles import check_integrity, explain, sqlite_uri
from astra_memory.db.setup_lock import setup_lock
from astra_memory.errors import ConfigurationError
from astra_memory.stores.embeddings import DIMS
from astra_memory.stores.locks import LOCK_TIMEOUT_S
from astra_memory.stores.store_needs import EMBEDDED_FIELD

BUSY_TIMEOUT_S = 30.0


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


def _database_file(conn) -> str | None:
    for row in conn.execute("PRAGMA database_list").fetchall():
        if row[1] == "main" and row[2]:
            return row[2]
    return None  # an in-memory database: one process, the process's own lock is enough


@contextmanager
def _file_lock(path: str) -> Iterator[None]:
    lock = FileLock(f"{path}.record-lock", timeout=LOCK_TIMEOUT_S)
    try:
        lock.acquire()
    except Timeout:
        raise ConfigurationError(f"{path}: another process held the record lock for {LOCK_TIMEOUT_S:.0f} s") from None
    try:
        yield
    finally:
        lock.release()


class SqliteMemoryStore(MatrixSqliteStore, MemoryBackend):
    """The memory's SQLite store: searched in numpy (``MatrixSqliteStore``), and what the memory asks of
    a backend (see the module docstring)."""

    def records_lock(self, keys: list[str]):
        path = _database_file(self.conn)
        return nullcontext() if path is None else _file_lock(path)  # one lock per memory file

    def delete_vectors(self, namespace: tuple[str, ...], key: str) -> None:
        purge_vectors(self, ".".join(namespace), key)

    def record_keys(self, namespace: tuple[str, ...]) -> list[str]:
        return [row[0] for row in self.conn.execute(
            "SELECT key FROM store WHERE prefix = ? ORDER BY key", (".".join(namespace),)).fetchall()]

    def stored_vectors(self, namespace: tuple[str, ...], field: str) -> dict[str, list[float]]:
        rows = self.conn.execute("SELECT key, embedding FROM store_vectors WHERE prefix = ? AND field_name = ?",
                                 (".".join(namespace), field)).fetchall()
        # sqlite-vec keeps a float32 vector as its raw little-endian bytes (serialize_float32).
        return {key: list(struct.unpack(f"<{len(blob) // 4}f", blob)) for key, blob in rows}


@contextmanager
def open_sqlite_store(path: str | Path, embeddings: Embeddings, *, read_only: bool = False) -> Iterator[SqliteMemoryStore]:
    """A set-up SqliteStore on ``path`` with semantic search over the embedded field (its candidates
    chosen in numpy: backends/sqlite/search.py).

    ``read_only``: an existing file, opened for reading only (the `memory list/search/show`
    commands, which then work on a read-only ASTRA_HOME); nothing is set up or purged."""
    if read_only:
        conn = connect(path, read_only=True)
        try:
            store = SqliteMemoryStore(conn, index=index_config(embeddings))
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
                store = SqliteMemoryStore(conn, index=index_config(embeddings))
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

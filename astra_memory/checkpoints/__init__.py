"""Checkpoints: LangGraph's SqliteSaver on one file (PostgresSaver in checkpoints/postgres.py), and listing of threads."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from langgraph.checkpoint.sqlite import SqliteSaver

from astra_memory.db.datafiles import check_integrity, explain, sqlite_uri
from astra_memory.db.setup_lock import setup_lock

BUSY_TIMEOUT_S = 30.0


@contextmanager
def open_checkpointer(path: str | Path, *, read_only: bool = False) -> Iterator[SqliteSaver]:
    """A set-up SqliteSaver (WAL, busy timeout) on ``path``; refuses a file that is not SQLite or is
    damaged (checked before anything is written). ``read_only``: an existing file opened for
    reading only (``threads`` on a read-only ASTRA_HOME), no set-up."""
    if not read_only:
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise explain(exc, Path(path).parent, action="create") from None
    try:
        conn = sqlite3.connect(sqlite_uri(path, read_only=read_only), uri=True, check_same_thread=False,
                               timeout=BUSY_TIMEOUT_S)
    except sqlite3.Error as exc:
        raise explain(exc, path, action="open") from None
    try:
        try:
            conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
            check_integrity(conn, path)
            saver = SqliteSaver(conn)
            if read_only:
                saver.is_setup = True
            else:
                with setup_lock(path):  # SqliteSaver.setup() switches a fresh file to WAL
                    saver.setup()
        except sqlite3.Error as exc:
            raise explain(exc, path, action="open") from None
        yield saver
    finally:
        conn.close()


def thread_ids(saver) -> list[str]:
    """Every thread with at least one checkpoint, most recent first (SQLite or PostgreSQL saver)."""
    if not isinstance(saver, SqliteSaver):
        from astra_memory.checkpoints.postgres import thread_ids as postgres_thread_ids

        return postgres_thread_ids(saver)
    with saver.cursor(transaction=False) as cur:
        cur.execute("SELECT thread_id, MAX(checkpoint_id) AS last FROM checkpoints "
                    "WHERE checkpoint_ns = '' GROUP BY thread_id ORDER BY last DESC")
        return [row[0] for row in cur.fetchall()]

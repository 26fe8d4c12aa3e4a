"""Checkpoints: LangGraph's SqliteSaver on one file (PostgresSaver in checkpoints/postgres.py), and listing of threads."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from langgraph.checkpoint.sqlite import SqliteSaver

from astra_memory.errors import ConfigurationError
from astra_memory.setup_lock import setup_lock

BUSY_TIMEOUT_S = 30.0


@contextmanager
def open_checkpointer(path: str | Path) -> Iterator[SqliteSaver]:
    """A set-up SqliteSaver (WAL, busy timeout) on ``path``; refuses a file that is not SQLite."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=BUSY_TIMEOUT_S)
    try:
        try:
            with setup_lock(path):  # SqliteSaver.setup() switches a fresh file to WAL
                conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
                saver = SqliteSaver(conn)
                saver.setup()
        except sqlite3.DatabaseError as exc:
            raise ConfigurationError(f"{path} is not a usable checkpoint file: {exc}") from None
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

"""Checkpoints: LangGraph's SqliteSaver on one file (PostgresSaver in checkpoints/postgres.py), and listing of threads."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver

from astra_memory.db.datafiles import check_integrity, explain, sqlite_uri
from astra_memory.db.setup_lock import setup_lock
from astra_memory.errors import AstraError

BUSY_TIMEOUT_S = 30.0


class DamagedCheckpointError(AstraError):
    """A thread's last checkpoint is in the database but cannot be read back: its value was damaged
    (edited by hand, garbage written over it) while the file itself is sound. Only that thread is
    affected; nothing is written over it."""

    def __init__(self, thread_id: str, where: str, why: str) -> None:
        self.thread_id, self.where, self.why = thread_id, where, why
        super().__init__(
            f"thread {thread_id}: its last checkpoint in {where} is damaged and cannot be read ({why}); it was "
            "left as it is and cannot be resumed: run the task again under a new thread id "
            f"(`astra-memory run ... --thread-id NEW`), and `astra-memory threads delete {thread_id}` removes "
            "this one; the other threads are not affected")


# The mapping LangGraph builds a state from (langgraph.checkpoint.base.Checkpoint); ``task`` is the
# state's one field every reader of a thread needs (astra_memory/state.py).
_CHECKPOINT_MAPPINGS = ("channel_values", "channel_versions", "versions_seen")


def _malformed(checkpoint: Any) -> str | None:
    """Why a decoded checkpoint is not one (garbage can decode as msgpack: a first byte 0x07 is the int 7), or None."""
    if not isinstance(checkpoint, Mapping):
        return f"it decodes to {type(checkpoint).__name__}, not a checkpoint"
    if not isinstance(checkpoint.get("v"), int) or not isinstance(checkpoint.get("id"), str):
        return "it has no version or id"
    wrong = [k for k in _CHECKPOINT_MAPPINGS if not isinstance(checkpoint.get(k), Mapping)]
    if wrong:
        return f"its {wrong[0]} is not a mapping"
    task = checkpoint["channel_values"].get("task")
    if task is not None and not isinstance(task, Mapping):
        return f"its task decodes to {type(task).__name__}"
    return None


class CheckedReads:
    """``get_tuple`` (what ``graph.get_state`` and every run/resume read) for the SQLite and the
    PostgreSQL saver: a checkpoint or pending write whose stored value the serializer cannot decode
    (``ormsgpack.MsgpackDecodeError`` and ``json.JSONDecodeError`` are ``ValueError``s; an unknown
    type tag is ``NotImplementedError``), or that decodes to something that is not a checkpoint,
    raises ``DamagedCheckpointError`` naming the thread and the file, instead of a traceback from
    deep inside LangGraph. ``where``: the file, or the database, for the message."""

    where = "the checkpoint database"

    def get_tuple(self, config):
        thread_id = str(config.get("configurable", {}).get("thread_id"))
        try:
            saved = super().get_tuple(config)
        except AstraError:
            raise
        except (ValueError, NotImplementedError) as exc:  # the serde's decode errors (see above)
            raise DamagedCheckpointError(thread_id, self.where, " ".join(f"{type(exc).__name__}: {exc}".split())[:200]) from None
        why = _malformed(saved.checkpoint) if saved is not None else None
        if why is not None:
            raise DamagedCheckpointError(thread_id, self.where, why)
        return saved


class CheckedSqliteSaver(CheckedReads, SqliteSaver):
    """LangGraph's SqliteSaver whose reads name a damaged checkpoint (CheckedReads)."""


@contextmanager
def open_checkpointer(path: str | Path, *, read_only: bool = False) -> Iterator[CheckedSqliteSaver]:
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
            saver = CheckedSqliteSaver(conn)
            saver.where = str(path)
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

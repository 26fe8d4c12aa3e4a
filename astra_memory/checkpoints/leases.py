"""One runner per thread, and every accepted thread registered: two small tables beside LangGraph's.

Why: LangGraph's checkpointer lets any process continue a thread, so two `resume` of one thread
at once would both run it (two edits, two test runs, two stores), and a session killed after
`run` accepted it but before its first checkpoint would be unknown to `resume`. So, in the
checkpoint database itself (``checkpoints.sqlite``, or the PostgreSQL database when
``ASTRA_DATABASE_URL`` is set), two tables of our own:

* ``astra_thread_leases``: who runs a thread now (pid, host, the process's start time, a random
  token) and until when (``expires_at``, pushed forward by a heartbeat thread every
  ``HEARTBEAT_S``). A lease is taken with a compare-and-set in one transaction: insert when there
  is no row, or update *the row that was read* (same token) when its holder is dead: its heartbeat
  expired, or it ran on this host and that process is gone (its pid no longer exists, is a zombie,
  or now belongs to a process that started at another time). Two processes racing for a dead
  holder's lease both read the same token; only one update matches it.
* ``astra_threads``: the task of every thread `run` accepted, written before the first node
  runs, so `resume` can start a thread that has no checkpoint yet from the beginning.

SQLite uses its own connection to the checkpoint file (WAL, busy timeout, ``BEGIN IMMEDIATE``);
PostgreSQL uses the process's pool. The SQL is the same on both (``?`` becomes ``%s``).
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from astra_memory.db.datafiles import explain, sqlite_uri
from astra_memory.errors import AstraError

LEASE_TTL_S = 60.0  # a holder whose heartbeat is older than this is dead, whatever host it ran on
HEARTBEAT_S = 10.0
BUSY_TIMEOUT_S = 30.0

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS astra_thread_leases (thread_id TEXT PRIMARY KEY, token TEXT NOT NULL, "
    "pid INTEGER NOT NULL, host TEXT NOT NULL, process_started TEXT NOT NULL, acquired_at TEXT NOT NULL, "
    "heartbeat_at DOUBLE PRECISION NOT NULL, expires_at DOUBLE PRECISION NOT NULL)",
    "CREATE TABLE IF NOT EXISTS astra_threads (thread_id TEXT PRIMARY KEY, task TEXT NOT NULL, "
    "registered_at TEXT NOT NULL)",
)


class ThreadBusyError(AstraError):
    """Another live process holds the thread's lease (or took it over from this one)."""


def _process_started(pid: int) -> str:
    """The process's start time in clock ticks since boot (Linux), so a reused pid is told apart."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rsplit(")", 1)[1].split()[19]  # field 22 of /proc/PID/stat


def _process_state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


def holder_alive(pid: int, started: str) -> bool:
    """Whether the process that took a lease on this host still runs."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process: it exists
    if _process_state(pid) in ("Z", "X"):
        return False
    now_started = _process_started(pid)
    return not (started and now_started and now_started != started)


@dataclass(frozen=True)
class Holder:
    token: str
    pid: int
    host: str
    process_started: str
    acquired_at: str
    heartbeat_at: float
    expires_at: float

    @classmethod
    def me(cls) -> Holder:
        now = time.time()
        return cls(uuid.uuid4().hex, os.getpid(), socket.gethostname(), _process_started(os.getpid()),
                   datetime.now(timezone.utc).isoformat(timespec="seconds"), now, now + LEASE_TTL_S)

    def dead(self, now: float) -> bool:
        if self.expires_at < now:
            return True
        return self.host == socket.gethostname() and not holder_alive(self.pid, self.process_started)

    def describe(self) -> str:
        age = max(0.0, time.time() - self.heartbeat_at)
        return (f"process {self.pid} on host {self.host} (holding it since {self.acquired_at}, "
                f"last heartbeat {age:.0f} s ago)")


_COLUMNS = "token, pid, host, process_started, acquired_at, heartbeat_at, expires_at"


class Lease:
    """A held lease: a heartbeat thread keeps it alive; ``check()`` raises once it was lost."""

    def __init__(self, tables: ThreadTables, thread_id: str, holder: Holder) -> None:
        self.tables, self.thread_id, self.holder = tables, thread_id, holder
        self.lost_to: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name=f"lease-{thread_id}", daemon=True)
        self._thread.start()

    def _beat(self) -> None:
        while not self._stop.wait(HEARTBEAT_S):
            now = time.time()
            try:
                with self.tables.transaction() as db:
                    kept = db.execute("UPDATE astra_thread_leases SET heartbeat_at = ?, expires_at = ? "
                                      "WHERE thread_id = ? AND token = ?",
                                      (now, now + LEASE_TTL_S, self.thread_id, self.holder.token)).rowcount
            except Exception:  # noqa: BLE001  (a full disk or a lost connection: try again next beat)
                continue
            if kept == 0:
                self.lost_to = "another process"
                return

    def check(self) -> None:
        if self.lost_to:
            raise ThreadBusyError(f"thread {self.thread_id}: this process lost its lease to {self.lost_to} "
                                  "(its heartbeat stopped for longer than the lease lasts); stopping")

    def release(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        try:
            with self.tables.transaction() as db:
                db.execute("DELETE FROM astra_thread_leases WHERE thread_id = ? AND token = ?",
                           (self.thread_id, self.holder.token))
        except Exception:  # noqa: BLE001  (the next runner sees this process gone and takes over)
            pass


class ThreadTables:
    """Leases and the thread registry on one database (``SqliteThreadTables`` or ``PostgresThreadTables``)."""

    def transaction(self):  # pragma: no cover - implemented by subclasses
        raise NotImplementedError

    # -- leases -----------------------------------------------------------------------------------

    def holder(self, thread_id: str) -> Holder | None:
        with self.transaction() as db:
            row = db.execute(f"SELECT {_COLUMNS} FROM astra_thread_leases WHERE thread_id = ?",
                             (thread_id,)).fetchone()
        return Holder(*row) if row else None

    def try_acquire(self, thread_id: str) -> tuple[Holder | None, Holder | None]:
        """(mine, None) if this process now holds the lease, else (None, the live holder)."""
        me = Holder.me()
        values = (me.token, me.pid, me.host, me.process_started, me.acquired_at, me.heartbeat_at, me.expires_at)
        with self.transaction() as db:
            row = db.execute(f"SELECT {_COLUMNS} FROM astra_thread_leases WHERE thread_id = ?",
                             (thread_id,)).fetchone()
            current = Holder(*row) if row else None
            if current is None:
                won = db.execute(f"INSERT INTO astra_thread_leases (thread_id, {_COLUMNS}) VALUES "
                                 "(?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (thread_id) DO NOTHING",
                                 (thread_id, *values)).rowcount
            elif current.dead(time.time()):
                won = db.execute("UPDATE astra_thread_leases SET token = ?, pid = ?, host = ?, process_started = ?, "
                                 "acquired_at = ?, heartbeat_at = ?, expires_at = ? WHERE thread_id = ? AND token = ?",
                                 (*values, thread_id, current.token)).rowcount
            else:
                won = 0
        if won == 1:
            return me, None
        return None, current or self.holder(thread_id)

    def acquire(self, thread_id: str) -> Lease:
        mine, other = self.try_acquire(thread_id)
        if mine is None:
            who = other.describe() if other else "another process"
            raise ThreadBusyError(
                f"thread {thread_id} is being run by {who}; one runner per thread. Wait for it to finish "
                f"(`astra-memory threads`), or, if that process is gone, run this again: a dead holder's lease "
                f"is taken over (at once on the same host, after {LEASE_TTL_S:.0f} s from another)")
        return Lease(self, thread_id, mine)

    # -- registry ---------------------------------------------------------------------------------

    def register(self, thread_id: str, task: dict[str, Any]) -> bool:
        """Record the task of a thread `run` accepted; False if the id was registered already."""
        with self.transaction() as db:
            return db.execute("INSERT INTO astra_threads (thread_id, task, registered_at) VALUES (?, ?, ?) "
                              "ON CONFLICT (thread_id) DO NOTHING",
                              (thread_id, json.dumps(task, default=str),
                               datetime.now(timezone.utc).isoformat())).rowcount == 1

    def registered(self, thread_id: str) -> dict[str, Any] | None:
        with self.transaction() as db:
            row = db.execute("SELECT task FROM astra_threads WHERE thread_id = ?", (thread_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def forget(self, thread_id: str) -> bool:
        """Remove the thread's registration (``threads delete``); False if it had none."""
        with self.transaction() as db:
            return db.execute("DELETE FROM astra_threads WHERE thread_id = ?", (thread_id,)).rowcount == 1

    def registered_ids(self) -> list[tuple[str, str]]:
        """(thread id, registered at), newest first."""
        with self.transaction() as db:
            rows = db.execute("SELECT thread_id, registered_at FROM astra_threads ORDER BY registered_at DESC",
                              ()).fetchall()
        return [(r[0], r[1]) for r in rows]


class SqliteThreadTables(ThreadTables):
    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._lock = threading.Lock()
        try:
            self._conn = sqlite3.connect(sqlite_uri(self.path, read_only=read_only), uri=True,
                                         isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_S)
            self._conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
            if not read_only:
                with self.transaction() as db:
                    for statement in SCHEMA:
                        db.execute(statement, ())
        except sqlite3.Error as exc:
            raise explain(exc, self.path, action="open") from None

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        with self._lock:
            if self.read_only:
                yield _Sqlite(self._conn)
                return
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield _Sqlite(self._conn)
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def registered_ids(self) -> list[tuple[str, str]]:
        try:
            return super().registered_ids()
        except sqlite3.OperationalError as exc:  # a read-only file from before these tables
            if "no such table" in str(exc):
                return []
            raise

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class _Sqlite:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, params: tuple) -> Any:
        return self.conn.execute(sql, params)


class PostgresThreadTables(ThreadTables):
    def __init__(self, pool: Any) -> None:
        self.pool = pool

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        with self.pool.connection() as conn, conn.transaction():
            yield _Postgres(conn)


class _Postgres:
    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def execute(self, sql: str, params: tuple) -> Any:
        return _TupleRows(self.conn.execute(sql.replace("?", "%s"), params))


class _TupleRows:
    """The pool's connections return dict rows (LangGraph's classes expect them); ours read tuples."""

    def __init__(self, cursor: Any) -> None:
        self.cursor = cursor
        self.rowcount = cursor.rowcount

    def fetchone(self):
        row = self.cursor.fetchone()
        return tuple(row.values()) if isinstance(row, dict) else row

    def fetchall(self):
        return [tuple(r.values()) if isinstance(r, dict) else r for r in self.cursor.fetchall()]


def setup_postgres(conn: Any) -> None:
    """Idempotent set-up of the two tables (run under astra's set-up advisory lock, see pgconn)."""
    for statement in SCHEMA:
        conn.execute(statement)


@contextmanager
def open_sqlite_thread_tables(path: str | Path, *, read_only: bool = False) -> Iterator[SqliteThreadTables]:
    tables = SqliteThreadTables(path, read_only=read_only)
    try:
        yield tables
    finally:
        tables.close()

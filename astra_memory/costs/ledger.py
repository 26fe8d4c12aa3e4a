"""The cost guard's durable ledger of every live request (prices and worst cases: prices.py).

Why a ledger and not only the counters in the graph state: state is checkpointed *after* a node
finishes, so a process killed while a model request is in flight loses that request from state,
although the provider may already have billed it. The ledger is written *before* the request is
sent (a reservation of its worst-case cost, committed) and settled with the real usage after, so
a crash leaves the reservation counted, and every later check (this session after `resume`, or
any other session against the total limit) sees it.

A request is sent only when ``spent + worst case <= limit`` holds for both the session limit and
the total limit across sessions; the worst case is an upper bound from the prompt's size and the
output-token cap sent with the request, so a request that is sent can never push the spend past
a limit (unless the server ignores the cap: the real usage is recorded either way).

The ledger is a small interface (``CostLedger``); ``SqliteCostLedger`` is the embedded default,
in ``ledger.sqlite`` next to the checkpoints. A PostgreSQL ledger only has to implement the same
methods with the same guarantees (see ``CostLedger``).
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Protocol, runtime_checkable

from astra_memory.context import setting_name
from astra_memory.db.datafiles import check_integrity, explain
from astra_memory.db.setup_lock import setup_lock
from astra_memory.errors import AgentLimitError

BUSY_TIMEOUT_S = 30.0
LEDGER_FILE = "ledger.sqlite"
SCHEMA_VERSION = "1"
EPSILON_USD = 1e-12  # float sums of many small costs must not flip a comparison at the limit


class BudgetExceededError(AgentLimitError):
    """A request's worst-case cost could take the spend past a limit; it was not sent."""


# -- the ledger -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Usage:
    """What a session (or all sessions) spent. ``spent_usd`` counts open reservations at their
    worst case: a request whose outcome is unknown (the process died) may have been billed."""

    thread_id: str | None
    requests: int
    open_reservations: int
    failed: int
    input_tokens: int
    output_tokens: int
    spent_usd: float
    limit_usd: float | None = None
    model: str | None = None

    def to_dict(self) -> dict:
        return {**asdict(self), "spent_usd": round(self.spent_usd, 9)}


@runtime_checkable
class CostLedger(Protocol):
    """A durable record of every live model request. Implementations must guarantee:

    * ``reserve(thread_id, request_id, max_cost, ...)`` checks the limits and records the
      reservation in ONE atomic step that is committed (durable) before it returns, serialized
      against every other process using the same ledger: two sessions can never both pass the
      check on the same remaining budget. It raises ``BudgetExceededError`` (recording nothing)
      when ``spent + max_cost`` would exceed ``session_limit`` (this thread) or ``total_limit``
      (all threads). A repeated ``request_id`` returns without counting it twice.
    * ``settle(request_id, input_tokens, output_tokens, cost, outcome=...)`` replaces the
      reservation by the real usage (``outcome="failed"`` for a request with no billable answer);
      settling twice, or settling an unknown id, changes nothing.
    * an unsettled reservation stays counted at ``max_cost`` forever (a crash during a request).
    * ``session(thread_id)``, ``sessions()`` and ``total()`` report ``Usage``; ``requests()`` lists
      the request rows (oldest first) as dicts; ``session_limit``
      returns the per-session limit recorded by the thread's first reservation, so a resumed
      session keeps the limit it was started with unless a new one is given.
    """

    def reserve(self, thread_id: str, request_id: str, max_cost: float, *, model: str,
                session_limit: float, total_limit: float, input_bound: int = 0,
                output_bound: int = 0) -> None: ...

    def settle(self, request_id: str, input_tokens: int, output_tokens: int, cost: float, *,
               outcome: str = "settled", note: str | None = None) -> None: ...

    def session(self, thread_id: str) -> Usage: ...

    def sessions(self) -> list[Usage]: ...

    def total(self) -> Usage: ...

    def session_limit(self, thread_id: str) -> float | None: ...

    def requests(self, thread_id: str | None = None) -> list[dict]: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS ledger_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ledger_sessions (
    thread_id TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    limit_usd REAL NOT NULL,
    first_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ledger_requests (
    request_id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL,
    model TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('reserved', 'settled', 'failed')),
    reserved_usd REAL NOT NULL,
    input_bound INTEGER NOT NULL DEFAULT 0,
    output_bound INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    reserved_at TEXT NOT NULL,
    settled_at TEXT,
    note TEXT
);
CREATE INDEX IF NOT EXISTS ledger_requests_thread ON ledger_requests (thread_id);
"""
# What a request counts for: its worst case while its outcome is unknown, its real cost after.
_CHARGED = "CASE WHEN state = 'reserved' THEN reserved_usd ELSE COALESCE(cost_usd, 0) END"
_USAGE_COLUMNS = (f"COUNT(*), SUM(state = 'reserved'), SUM(state = 'failed'), COALESCE(SUM(input_tokens), 0), "
                  f"COALESCE(SUM(output_tokens), 0), COALESCE(SUM({_CHARGED}), 0)")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


def ledger_path_for(checkpoint_path: str | Path) -> Path:
    """The ledger lives beside the checkpoints, so one data directory holds a session's whole story."""
    return Path(checkpoint_path).parent / LEDGER_FILE



def check_spend(session_spent: float, total_spent: float, max_cost: float, session_limit: float,
                 total_limit: float) -> None:
    """Refuse a request whose worst case could pass the session or the total limit (both ledgers)."""
    if session_spent + max_cost > session_limit + EPSILON_USD:
        raise BudgetExceededError(
            f"session budget ${session_limit:.4f} would be exceeded: this session has spent "
            f"${session_spent:.6f} (open reservations counted at their worst case) and the next "
            f"request could cost up to ${max_cost:.6f}; it was not sent. Raise {setting_name('session_budget_usd')} "
            "to allow more")
    if total_spent + max_cost > total_limit + EPSILON_USD:
        raise BudgetExceededError(
            f"total budget ${total_limit:.4f} across all sessions would be exceeded: "
            f"${total_spent:.6f} is spent and the next request could cost up to ${max_cost:.6f}; "
            f"it was not sent. Raise {setting_name('total_budget_usd')} to allow more; "
            "`astra-memory cost` shows the ledger")


class SqliteCostLedger:
    """``CostLedger`` on one SQLite file: WAL, a busy timeout, ``BEGIN IMMEDIATE`` around the
    check-and-reserve (so concurrent processes serialize on it), ``synchronous=FULL`` (a committed
    reservation survives a power cut, not only a killed process). Safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise explain(exc, self.path.parent, action="create") from None
        self._lock = threading.Lock()
        try:
            with setup_lock(self.path):  # a fresh file's switch to WAL, one process at a time
                self._conn = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                             check_same_thread=False)
                self._conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
                check_integrity(self._conn, self.path)
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=FULL")
                with self._transaction():  # executescript() would commit on its own: one statement at a time
                    for statement in filter(str.strip, _SCHEMA.split(";")):
                        self._conn.execute(statement)
                    self._conn.execute("INSERT OR IGNORE INTO ledger_meta (key, value) VALUES ('schema_version', ?)",
                                       (SCHEMA_VERSION,))
        except sqlite3.Error as exc:
            raise explain(exc, self.path, action="open") from None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE: take the write lock up front, so a check and its insert are one step."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- writes -----------------------------------------------------------------------------------

    def reserve(self, thread_id: str, request_id: str, max_cost: float, *, model: str,
                session_limit: float, total_limit: float, input_bound: int = 0, output_bound: int = 0) -> None:
        if not math.isfinite(max_cost) or max_cost < 0:
            raise ValueError(f"max_cost must be a finite amount >= 0, got {max_cost!r}")
        with self._transaction() as conn:
            if conn.execute("SELECT 1 FROM ledger_requests WHERE request_id = ?", (request_id,)).fetchone():
                return  # idempotent: already reserved (or settled)
            session_spent = conn.execute(f"SELECT COALESCE(SUM({_CHARGED}), 0) FROM ledger_requests "
                                         "WHERE thread_id = ?", (thread_id,)).fetchone()[0]
            total_spent = conn.execute(f"SELECT COALESCE(SUM({_CHARGED}), 0) FROM ledger_requests").fetchone()[0]
            check_spend(session_spent, total_spent, max_cost, session_limit, total_limit)
            now = _now()
            conn.execute("INSERT INTO ledger_sessions (thread_id, model, limit_usd, first_at) VALUES (?, ?, ?, ?) "
                         "ON CONFLICT (thread_id) DO UPDATE SET limit_usd = excluded.limit_usd, "
                         "model = excluded.model", (thread_id, model, session_limit, now))
            conn.execute("INSERT INTO ledger_requests (request_id, thread_id, model, state, reserved_usd, "
                         "input_bound, output_bound, reserved_at) VALUES (?, ?, ?, 'reserved', ?, ?, ?, ?)",
                         (request_id, thread_id, model, max_cost, input_bound, output_bound, now))

    def settle(self, request_id: str, input_tokens: int, output_tokens: int, cost: float, *,
               outcome: str = "settled", note: str | None = None) -> None:
        if outcome not in ("settled", "failed"):
            raise ValueError(f"outcome must be 'settled' or 'failed', not {outcome!r}")
        with self._transaction() as conn:
            conn.execute("UPDATE ledger_requests SET state = ?, input_tokens = ?, output_tokens = ?, cost_usd = ?, "
                         "settled_at = ?, note = ? WHERE request_id = ? AND state = 'reserved'",
                         (outcome, int(input_tokens), int(output_tokens), float(cost), _now(), note, request_id))

    # -- reads ------------------------------------------------------------------------------------

    def _usage(self, row: tuple, thread_id: str | None, limit: float | None = None,
               model: str | None = None) -> Usage:
        requests, open_, failed, tokens_in, tokens_out, spent = row
        return Usage(thread_id=thread_id, requests=int(requests or 0), open_reservations=int(open_ or 0),
                     failed=int(failed or 0), input_tokens=int(tokens_in or 0), output_tokens=int(tokens_out or 0),
                     spent_usd=float(spent or 0.0), limit_usd=limit, model=model)

    def session(self, thread_id: str) -> Usage:
        with self._lock:
            row = self._conn.execute(f"SELECT {_USAGE_COLUMNS} FROM ledger_requests WHERE thread_id = ?",
                                     (thread_id,)).fetchone()
            meta = self._conn.execute("SELECT limit_usd, model FROM ledger_sessions WHERE thread_id = ?",
                                      (thread_id,)).fetchone()
        return self._usage(row, thread_id, *(meta or (None, None)))

    def sessions(self) -> list[Usage]:
        with self._lock:
            rows = self._conn.execute(
                f"SELECT r.thread_id, {_USAGE_COLUMNS}, MAX(s.limit_usd), MAX(s.model), MIN(r.reserved_at) "
                "FROM ledger_requests r LEFT JOIN ledger_sessions s ON s.thread_id = r.thread_id "
                "GROUP BY r.thread_id ORDER BY MIN(r.reserved_at)").fetchall()
        return [self._usage(row[1:7], row[0], row[7], row[8]) for row in rows]

    def total(self) -> Usage:
        with self._lock:
            row = self._conn.execute(f"SELECT {_USAGE_COLUMNS} FROM ledger_requests").fetchone()
        return self._usage(row, None)

    def session_limit(self, thread_id: str) -> float | None:
        with self._lock:
            row = self._conn.execute("SELECT limit_usd FROM ledger_sessions WHERE thread_id = ?",
                                     (thread_id,)).fetchone()
        return float(row[0]) if row else None

    def requests(self, thread_id: str | None = None) -> list[dict]:
        """Every request row (for `astra-memory cost --json` and tests), oldest first."""
        query = "SELECT * FROM ledger_requests" + (" WHERE thread_id = ?" if thread_id else "") + " ORDER BY rowid"
        with self._lock:
            cursor = self._conn.execute(query, (thread_id,) if thread_id else ())
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


@contextmanager
def open_sqlite_ledger(path: str | Path) -> Iterator[SqliteCostLedger]:
    ledger = SqliteCostLedger(path)
    try:
        yield ledger
    finally:
        ledger.close()

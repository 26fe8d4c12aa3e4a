"""The cost ledger on the team's PostgreSQL: same ``CostLedger`` interface, same guarantees.

Why a transaction-scoped advisory lock around ``reserve``: the check (``spent + max_cost <= limit``)
and the insert must be one step for every process on every machine, or two sessions could both
pass the check on the same remaining budget. SQLite gets that from ``BEGIN IMMEDIATE``; here
``pg_advisory_xact_lock`` serializes reservations database-wide and is released by the commit, so
a killed process never leaves it held. The commit is durable (``synchronous_commit`` as the
server has it; the default is on) before ``reserve`` returns.

Rows and reports are the SQLite ledger's (``astra_memory.costs.ledger``): the same tables and
columns, money as double precision, times as ISO text, so ``requests()`` returns the same dicts.
"""

from __future__ import annotations

import math
from typing import Any

from astra_memory.costs.ledger import SCHEMA_VERSION, Usage, _now, check_spend

LEDGER_LOCK_KEY = 0x6173747261_01  # distinct from the schema set-up lock in astra_memory.db.postgres

_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS ledger_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS ledger_sessions (
        thread_id TEXT PRIMARY KEY,
        model TEXT NOT NULL,
        limit_usd DOUBLE PRECISION NOT NULL,
        first_at TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS ledger_requests (
        seq BIGSERIAL,
        request_id TEXT PRIMARY KEY,
        thread_id TEXT NOT NULL,
        model TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('reserved', 'settled', 'failed')),
        reserved_usd DOUBLE PRECISION NOT NULL,
        input_bound INTEGER NOT NULL DEFAULT 0,
        output_bound INTEGER NOT NULL DEFAULT 0,
        cost_usd DOUBLE PRECISION,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        reserved_at TEXT NOT NULL,
        settled_at TEXT,
        note TEXT)""",
    "CREATE INDEX IF NOT EXISTS ledger_requests_thread ON ledger_requests (thread_id)",
]
_COLUMNS = ("request_id, thread_id, model, state, reserved_usd, input_bound, output_bound, cost_usd, "
            "input_tokens, output_tokens, reserved_at, settled_at, note")
_CHARGED = "CASE WHEN state = 'reserved' THEN reserved_usd ELSE COALESCE(cost_usd, 0) END"
_USAGE = (f"COUNT(*) AS requests, COUNT(*) FILTER (WHERE state = 'reserved') AS open, "
          f"COUNT(*) FILTER (WHERE state = 'failed') AS failed, COALESCE(SUM(input_tokens), 0) AS tin, "
          f"COALESCE(SUM(output_tokens), 0) AS tout, COALESCE(SUM({_CHARGED}), 0) AS spent")


def setup_ledger(conn) -> None:
    """Idempotent; run under the schema set-up lock with the other migrations."""
    for statement in _SCHEMA:
        conn.execute(statement)
    conn.execute("INSERT INTO ledger_meta (key, value) VALUES ('schema_version', %s) ON CONFLICT DO NOTHING",
                 (SCHEMA_VERSION,))


class PostgresCostLedger:
    """``CostLedger`` on a psycopg connection pool (autocommit connections with dict rows)."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool

    def close(self) -> None:
        """The pool belongs to the backend that opened it."""

    # -- writes -----------------------------------------------------------------------------------

    def reserve(self, thread_id: str, request_id: str, max_cost: float, *, model: str,
                session_limit: float, total_limit: float, input_bound: int = 0, output_bound: int = 0) -> None:
        if not math.isfinite(max_cost) or max_cost < 0:
            raise ValueError(f"max_cost must be a finite amount >= 0, got {max_cost!r}")
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (LEDGER_LOCK_KEY,))
            if conn.execute("SELECT 1 FROM ledger_requests WHERE request_id = %s", (request_id,)).fetchone():
                return  # idempotent: already reserved (or settled)
            session_spent = conn.execute(f"SELECT COALESCE(SUM({_CHARGED}), 0) AS s FROM ledger_requests "
                                         "WHERE thread_id = %s", (thread_id,)).fetchone()["s"]
            total_spent = conn.execute(f"SELECT COALESCE(SUM({_CHARGED}), 0) AS s FROM ledger_requests").fetchone()["s"]
            check_spend(session_spent, total_spent, max_cost, session_limit, total_limit)
            now = _now()
            conn.execute("INSERT INTO ledger_sessions (thread_id, model, limit_usd, first_at) VALUES (%s, %s, %s, %s) "
                         "ON CONFLICT (thread_id) DO UPDATE SET limit_usd = excluded.limit_usd, "
                         "model = excluded.model", (thread_id, model, session_limit, now))
            conn.execute("INSERT INTO ledger_requests (request_id, thread_id, model, state, reserved_usd, "
                         "input_bound, output_bound, reserved_at) VALUES (%s, %s, %s, 'reserved', %s, %s, %s, %s)",
                         (request_id, thread_id, model, max_cost, input_bound, output_bound, now))

    def settle(self, request_id: str, input_tokens: int, output_tokens: int, cost: float, *,
               outcome: str = "settled", note: str | None = None) -> None:
        if outcome not in ("settled", "failed"):
            raise ValueError(f"outcome must be 'settled' or 'failed', not {outcome!r}")
        with self.pool.connection() as conn:
            conn.execute("UPDATE ledger_requests SET state = %s, input_tokens = %s, output_tokens = %s, "
                         "cost_usd = %s, settled_at = %s, note = %s WHERE request_id = %s AND state = 'reserved'",
                         (outcome, int(input_tokens), int(output_tokens), float(cost), _now(), note, request_id))

    # -- reads ------------------------------------------------------------------------------------

    @staticmethod
    def _usage(row: dict, thread_id: str | None, limit: float | None = None, model: str | None = None) -> Usage:
        return Usage(thread_id=thread_id, requests=int(row["requests"] or 0), open_reservations=int(row["open"] or 0),
                     failed=int(row["failed"] or 0), input_tokens=int(row["tin"] or 0),
                     output_tokens=int(row["tout"] or 0), spent_usd=float(row["spent"] or 0.0),
                     limit_usd=limit, model=model)

    def session(self, thread_id: str) -> Usage:
        with self.pool.connection() as conn:
            row = conn.execute(f"SELECT {_USAGE} FROM ledger_requests WHERE thread_id = %s", (thread_id,)).fetchone()
            meta = conn.execute("SELECT limit_usd, model FROM ledger_sessions WHERE thread_id = %s",
                                (thread_id,)).fetchone()
        return self._usage(row, thread_id, *((meta["limit_usd"], meta["model"]) if meta else (None, None)))

    def sessions(self) -> list[Usage]:
        with self.pool.connection() as conn:
            rows = conn.execute(
                f"SELECT r.thread_id, {_USAGE}, MAX(s.limit_usd) AS limit_usd, MAX(s.model) AS model "
                "FROM ledger_requests r LEFT JOIN ledger_sessions s ON s.thread_id = r.thread_id "
                "GROUP BY r.thread_id ORDER BY MIN(r.seq)").fetchall()
        return [self._usage(row, row["thread_id"], row["limit_usd"], row["model"]) for row in rows]

    def total(self) -> Usage:
        with self.pool.connection() as conn:
            row = conn.execute(f"SELECT {_USAGE} FROM ledger_requests").fetchone()
        return self._usage(row, None)

    def session_limit(self, thread_id: str) -> float | None:
        with self.pool.connection() as conn:
            row = conn.execute("SELECT limit_usd FROM ledger_sessions WHERE thread_id = %s", (thread_id,)).fetchone()
        return float(row["limit_usd"]) if row else None

    def requests(self, thread_id: str | None = None) -> list[dict]:
        """Every request row, oldest first, with the SQLite ledger's columns."""
        query = f"SELECT {_COLUMNS} FROM ledger_requests" + (" WHERE thread_id = %s" if thread_id else "") + \
            " ORDER BY seq"
        with self.pool.connection() as conn:
            return [dict(row) for row in conn.execute(query, (thread_id,) if thread_id else ()).fetchall()]

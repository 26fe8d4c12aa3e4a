"""Connections to the team's PostgreSQL: URL checks, one pool per process, serialized schema set-up.

Imported only when a ``postgresql://`` URL is configured. psycopg is an optional dependency (the
``postgres`` extra), so nothing here runs, and nothing is required, for a SQLite user.

Why the set-up lock: LangGraph's ``PostgresSaver.setup()`` and ``PostgresStore.setup()`` read a
migration version and then insert the next one, and ``CREATE TABLE IF NOT EXISTS`` itself races
on the catalog. Sixteen workers starting at once against a fresh database would trip over each
other, so every astra process runs set-up under one PostgreSQL advisory lock. The lock is taken
with ``pg_try_advisory_lock`` in a short polling loop rather than the blocking ``pg_advisory_lock``:
``CREATE INDEX CONCURRENTLY`` (used by both migrations) waits for every transaction that holds an
older snapshot, and a backend blocked inside ``pg_advisory_lock`` is such a transaction, which
would deadlock with the holder.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from astra_memory.errors import ConfigurationError
from astra_memory.redact import scrub

SCHEMES = ("postgresql://", "postgres://")
SETUP_LOCK_KEY = 0x6173747261  # "astra": one advisory lock for every astra process on a database
SETUP_LOCK_WAIT_S = 120.0
CONNECT_TIMEOUT_S = 10
# Retried connection failures: no answer from the server (refused, reset), or the server's
# "cannot connect now" (the database system is starting up / shutting down / in recovery). A
# failed connect carries no SQLSTATE in psycopg, so the server's answer is told apart by libpq's
# "FATAL:" prefix. Not retried: a timeout (it already waited CONNECT_TIMEOUT_S). Waits 0.25 +
# 0.5 + 1 + 2 s in all.
CONNECT_RETRY_DELAYS_S = (0.25, 0.5, 1.0, 2.0)
POOL_OPEN_TIMEOUT_S = 30.0


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(SCHEMES)


def redact_url(url: str) -> str:
    """The URL with its password replaced, safe for an error message or a log line."""
    return scrub(url)


def _psycopg(setting: str):
    try:
        import psycopg
        import psycopg_pool  # noqa: F401  (checked here so the error names the extra once)
    except ImportError as exc:
        raise ConfigurationError(
            f"{setting} points at PostgreSQL but psycopg is not installed: run "
            "`pip install 'astra-codebase-memory[postgres]'` (psycopg[binary], psycopg-pool, "
            "langgraph-checkpoint-postgres), or unset it to use the SQLite files"
        ) from exc
    return psycopg


def check_url(url: str, setting: str) -> str:
    """Refuse anything that is not a parseable ``postgresql://`` URL, naming the setting."""
    if not is_postgres_url(url):
        raise ConfigurationError(
            f"{setting}={redact_url(str(url))!r} is not a PostgreSQL URL: it must start with postgresql:// "
            "(e.g. postgresql://user:password@db.example:5432/astra); unset it to use the SQLite files"
        )
    psycopg = _psycopg(setting)
    try:
        psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        raise ConfigurationError(f"{setting}={redact_url(url)!r} is not a valid PostgreSQL URL: {exc}") from None
    return url


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return redact_url(text.splitlines()[0])


def connection_kwargs() -> dict[str, Any]:
    """What LangGraph's Postgres classes expect of a connection: autocommit, dict rows, no prepares."""
    from psycopg.rows import dict_row

    return {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}


def _transient(exc: BaseException) -> bool:
    text = str(exc)
    if "timeout expired" in text:
        return False
    return "FATAL:" not in text or "the database system is" in text


def connect(url: str, setting: str):
    """One direct connection (used for set-up); an unreachable server is a ConfigurationError.

    A failure the server did not answer (refused, reset) or answered with "cannot
    connect now" (starting up, shutting down, recovering) is retried a few times with backoff, as
    the pool does for its own connections; an answer such as a wrong password or a missing
    database is reported at once.
    """
    psycopg = _psycopg(setting)
    for attempt, delay in enumerate((*CONNECT_RETRY_DELAYS_S, None), start=1):
        try:
            return psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S, **connection_kwargs())
        except psycopg.Error as exc:
            if delay is None or not _transient(exc):
                tries = f" (after {attempt} attempts)" if attempt > 1 else ""
                raise ConfigurationError(
                    f"cannot connect to PostgreSQL at {redact_url(url)} (set by {setting}){tries}: {_first_line(exc)}"
                ) from None
        time.sleep(delay)


@contextmanager
def setup_lock(conn, *, wait_s: float = SETUP_LOCK_WAIT_S) -> Iterator[None]:
    """Hold the astra set-up advisory lock on ``conn`` (see the module docstring for why it polls)."""
    deadline = time.monotonic() + wait_s
    delay = 0.02
    while not conn.execute("SELECT pg_try_advisory_lock(%s) AS ok", (SETUP_LOCK_KEY,)).fetchone()["ok"]:
        if time.monotonic() > deadline:
            raise ConfigurationError(
                f"another process held the astra schema set-up lock for more than {wait_s:.0f}s; "
                "is a migration stuck? (pg_locks shows the holder)"
            )
        time.sleep(delay)
        delay = min(delay * 2, 0.25)
    try:
        yield
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK_KEY,))


def prepare(url: str, setting: str, steps: list[Callable[[Any], None]]) -> None:
    """Run the idempotent schema set-up ``steps`` on one connection, under the set-up lock."""
    psycopg = _psycopg(setting)
    with connect(url, setting) as conn:
        try:
            with setup_lock(conn):
                for step in steps:
                    step(conn)
        except psycopg.Error as exc:
            raise ConfigurationError(
                f"PostgreSQL at {redact_url(url)} (set by {setting}) could not be set up for astra: "
                f"{_first_line(exc)}"
            ) from None


@contextmanager
def open_pool(url: str, setting: str, *, size: int = 4,
              configure: Callable[[Any], None] | None = None) -> Iterator[Any]:
    """A psycopg ConnectionPool shared by the checkpointer and the store of one process.

    The LangGraph Postgres classes borrow a connection per operation, so several threads (or a
    graph and a CLI command) can use one agent at once; ``check`` revalidates a connection on
    every checkout so a restarted server costs one retry, not a failed session.
    """
    _psycopg(setting)
    from psycopg_pool import ConnectionPool, PoolTimeout

    pool = ConnectionPool(url, min_size=1, max_size=max(2, int(size)), kwargs=connection_kwargs(),
                          configure=configure, check=ConnectionPool.check_connection, open=False,
                          name="astra", timeout=POOL_OPEN_TIMEOUT_S)
    try:
        pool.open(wait=True, timeout=POOL_OPEN_TIMEOUT_S)
    except PoolTimeout:
        pool.close()
        raise ConfigurationError(
            f"cannot open a connection pool to PostgreSQL at {redact_url(url)} (set by {setting}) "
            f"within {POOL_OPEN_TIMEOUT_S:.0f}s"
        ) from None
    try:
        yield pool
    finally:
        pool.close()

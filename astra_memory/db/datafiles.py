"""Damaged, read-only or full data files: one translation from low-level errors to a named error.

Every error a data file can raise (``sqlite3`` / ``pysqlite3``, psycopg, ``OSError``) becomes a
``DataFileError`` here, and only here: its message names the file and says what to do. The open
functions (checkpoints, memory, ledger) call ``explain`` when opening fails; a session's run
(``session._drive``) and the CLI's last resort (``cli.main``) call it for whatever a write raises
later, so no command ends in a traceback because a disk filled up.

Three rules the callers keep:

* a damaged file is never written: ``check_integrity`` (``PRAGMA quick_check``, tens of
  milliseconds for 100 MB) runs on open, before any set-up or write;
* a read-only ``ASTRA_HOME`` still serves the read-only commands: ``sqlite_uri(read_only=True)``
  opens an existing file ``mode=ro``, and ``immutable=1`` when its folder cannot be written (SQLite
  cannot create the WAL index there, and nobody can change the file under us);
* a full disk stops a session at its last checkpoint: the message says to free space and resume.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import traceback
from pathlib import Path
from urllib.parse import quote

from astra_memory.errors import ConfigurationError

DAMAGED, READ_ONLY, FULL, LOCKED, MISSING, OTHER = "damaged", "read-only", "full", "locked", "missing", "other"


class DataFileError(ConfigurationError):
    """A data file (or its folder, or its database) is damaged, read-only, full or missing."""

    def __init__(self, message: str, *, path: str | None = None, kind: str = OTHER) -> None:
        super().__init__(message)
        self.path = path
        self.kind = kind


def _sqlite_error_types() -> tuple[type[BaseException], ...]:
    types: list[type[BaseException]] = [sqlite3.Error]
    try:  # the memory store's connection may come from pysqlite3 (see backends/sqlite/store.py)
        import pysqlite3.dbapi2 as pysqlite3  # type: ignore[import-not-found]

        types.append(pysqlite3.Error)
    except ImportError:
        pass
    return tuple(types)


SQLITE_ERRORS = _sqlite_error_types()


def storage_errors() -> tuple[type[BaseException], ...]:
    """Every exception type ``explain`` understands (psycopg's only when it is already imported)."""
    import sys

    extra = (sys.modules["psycopg"].Error,) if "psycopg" in sys.modules else ()
    return (*SQLITE_ERRORS, OSError, *extra)


def _kind(exc: BaseException) -> str:
    if isinstance(exc, OSError) and not isinstance(exc, SQLITE_ERRORS):
        return {errno.ENOSPC: FULL, errno.EDQUOT: FULL, errno.EROFS: READ_ONLY, errno.EACCES: READ_ONLY,
                errno.EPERM: READ_ONLY, errno.ENOENT: MISSING, errno.ENOTDIR: MISSING}.get(exc.errno or 0, OTHER)
    sqlstate = getattr(exc, "sqlstate", None)  # psycopg
    if sqlstate:
        return {"53100": FULL, "25006": READ_ONLY, "XX001": DAMAGED, "XX002": DAMAGED}.get(sqlstate, OTHER)
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in text or "not a database" in text:
        return DAMAGED
    if name.startswith("SQLITE_FULL") or "disk is full" in text:
        return FULL
    if name.startswith("SQLITE_READONLY") or "readonly database" in text or "read-only" in text:
        return READ_ONLY
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in text:
        return LOCKED
    if name.startswith("SQLITE_CANTOPEN") or "unable to open database file" in text:
        return MISSING  # explain() tells a read-only folder apart
    return OTHER


def _writable_folder(path: str | Path) -> bool:
    folder = Path(path).parent if not Path(path).is_dir() else Path(path)
    return os.access(folder, os.W_OK) and not _read_only_mount(folder)


def _read_only_mount(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _detail(exc: BaseException) -> str:
    text = (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)).strip()
    return (text.splitlines() or [type(exc).__name__])[0]


def explain(exc: BaseException, path: str | Path | None, *, resume: str | None = None,
            action: str = "use") -> DataFileError:
    """The DataFileError for ``exc`` raised while ``action``-ing ``path`` (a file, a folder or a
    redacted database URL). ``resume``: the command that continues the session a full disk
    interrupted (session/hints.py)."""
    if isinstance(exc, DataFileError):
        return exc
    if isinstance(exc, OSError) and not isinstance(exc, SQLITE_ERRORS) and exc.filename and path is None:
        path = exc.filename
    where = str(path) if path is not None else "a data file"
    kind = _kind(exc)
    if kind == MISSING and path is not None and not _writable_folder(path):
        kind = READ_ONLY
    detail = _detail(exc)
    resume = f"`{resume}`" if resume else "the command again"
    if kind == DAMAGED:
        message = (f"{where} is damaged ({detail}); nothing was written to it. Move it aside "
                   f"(`mv {where} {where}.damaged`) to start with an empty one, or restore it from a backup")
    elif kind == FULL:
        message = (f"no space left on the disk holding {where} ({detail}). Free some space, then run {resume}: "
                   "the session stopped at its last checkpoint and nothing written before it is lost")
    elif kind == READ_ONLY:
        message = (f"cannot write {where}: its folder is read-only or not ours ({detail}). Make it writable or set "
                   "ASTRA_HOME to a writable folder; `memory list/search/show` and `threads` work on a "
                   "read-only ASTRA_HOME whose files exist")
    elif kind == LOCKED:
        message = f"{where} stayed locked by another process ({detail}); try again when that process is done"
    elif kind == MISSING:
        message = f"cannot {action} {where}: no such file or folder ({detail})"
    else:
        message = f"cannot {action} {where}: {detail}"
    return DataFileError(message, path=str(path) if path is not None else None, kind=kind)


def check_integrity(conn, path: str | Path) -> None:
    """Refuse a damaged SQLite file before anything writes to it (``PRAGMA quick_check``)."""
    try:
        rows = conn.execute("PRAGMA quick_check(1)").fetchall()
    except SQLITE_ERRORS as exc:
        raise explain(exc, path, action="open") from None
    if [tuple(r) for r in rows] != [("ok",)]:
        problem = " ".join(str(rows[0][0]).split()) if rows else "no answer"
        raise DataFileError(f"{path} is damaged (integrity check: {problem}); nothing was written to it. Move it "
                            f"aside (`mv {path} {path}.damaged`) to start with an empty one, or restore it from a "
                            "backup", path=str(path), kind=DAMAGED)


def sqlite_uri(path: str | Path, *, read_only: bool) -> str:
    """The URI to open ``path`` with: read-write, ``mode=ro``, or ``mode=ro&immutable=1`` when even
    SQLite's WAL index cannot be created beside it (a read-only folder or mount)."""
    absolute = quote(str(Path(path).resolve()))
    if not read_only:
        return f"file:{absolute}"
    return f"file:{absolute}?mode=ro" + ("" if _writable_folder(path) else "&immutable=1")


_FILE_OF_MODULE = (("checkpoint/sqlite", "checkpoints.sqlite"), ("astra_memory/checkpoints", "checkpoints.sqlite"),
                   ("store/sqlite", "memory.sqlite"), ("astra_memory/stores", "memory.sqlite"),
                   ("astra_memory/costs", "ledger.sqlite"))


def file_of(exc: BaseException, home: str | Path) -> Path | str | None:
    """Which data file an error from deep inside a run came from: the OSError's own file name, or
    the SQLite file whose code raised it (read from the traceback, innermost frame first)."""
    if isinstance(exc, OSError) and not isinstance(exc, SQLITE_ERRORS) and exc.filename:
        return exc.filename
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        name = frame.filename.replace(os.sep, "/")
        for marker, file in _FILE_OF_MODULE:
            if marker in name:
                return Path(home) / file
    return None

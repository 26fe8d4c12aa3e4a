"""The fix memory on one SQLite file with sqlite-vec (the default, embedded backend): its opener.

``store.py``: the store (LangGraph's SqliteStore, its connection, record lock and vector purge);
``search.py``: its semantic search, candidates chosen in numpy.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from langchain_core.embeddings import Embeddings

from astra_memory.backends.base import Backend, MemoryOpener
from astra_memory.backends.sqlite.store import open_sqlite_store
from astra_memory.errors import ConfigurationError

TITLE = "SQLite"


def claims(target: str) -> bool:
    """A file path: anything that is not a URL."""
    return "://" not in str(target)


@contextmanager
def open_memory(target: str | Path, embeddings: Embeddings, *, setting: str, must_exist: bool = False,
                pool_size: int = 4, read_only: bool = False) -> Iterator[Backend]:
    """The memory file at ``target`` (``must_exist``: refuse to create one)."""
    path = Path(target).expanduser()
    if must_exist and not path.is_file():
        raise ConfigurationError(f"{setting} {path}: no such memory file")
    with open_sqlite_store(path, embeddings, read_only=read_only) as store:
        yield Backend("sqlite", None, store, str(path), memory_text=f"{TITLE} {path} ({setting})")


OPENER = MemoryOpener("sqlite", claims=claims, open=open_memory, example="a SQLite file path")

"""The fix memory on Actian VectorAI DB (the ``actian`` extra): its opener. UNVERIFIED without a server
(see ``store.py``).

A target is ``vectorai://host:port`` (``memory migrate``'s ends), or ``vectorai://host:port/COLLECTION``
for another collection than ``astra_codebase_memory`` (the tests' conformance fixture gives each test its
own); ``ASTRA_VECTORAI_URL=host:port`` moves the configured memory there (backends/open.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from langchain_core.embeddings import Embeddings

from astra_memory.backends.base import Backend, MemoryOpener
from astra_memory.settings import Settings

TITLE = "VectorAI DB"
SCHEME = "vectorai://"


def claims(target: str) -> bool:
    return str(target).startswith(SCHEME)


@contextmanager
def open_memory(target: str, embeddings: Embeddings, *, setting: str, must_exist: bool = False,
                pool_size: int = 4, lock_dir: Path | None = None) -> Iterator[Backend]:
    """The memory on the server at ``target`` (``vectorai://host:port`` or ``host:port``); its record lock's
    file in ``lock_dir`` (default: the data folder, ASTRA_HOME)."""
    from astra_memory.backends.actian.store import open_actian_store
    url = str(target).removeprefix(SCHEME)
    lock_dir = Settings().home if lock_dir is None else lock_dir
    with open_actian_store(embeddings, url, setting=setting, lock_dir=lock_dir) as store:
        yield Backend("actian", None, store, url, memory_text=f"{TITLE} {url} ({setting})")


OPENER = MemoryOpener("actian", claims=claims, open=open_memory, example=f"a {SCHEME}HOST:PORT")

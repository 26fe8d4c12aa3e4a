"""What every memory backend offers, in one small interface, chosen once where the backend is opened.

A memory backend is one package under ``astra_memory/backends/`` (``sqlite/``, ``postgres/``,
``actian/``) with two parts:

- its store (``store.py``): a LangGraph ``BaseStore`` (search included: the store's own ``search``)
  that is also a ``MemoryBackend``: what the memory asks of it (``StoreNeeds``, stores/store_needs.py:
  the cross-process record lock, what to purge after a delete, which vectors its search skips) and what
  ``memory migrate`` copies (``record_keys``, ``stored_vectors``: backends/migrate.py);
- its ``OPENER`` (``__init__.py``): which targets it claims and how it opens the memory alone (a
  ``memory migrate`` end, the conformance fixture in tests/conftest.py).

``backends/open.py`` holds the table of openers. Nothing outside ``backends/`` tells the backends
apart by type: it asks the store, or reads the ``Backend`` the opener returned.

Adding a backend: its package (``__init__.py`` with the opener, ``store.py``), one line in
``MEMORY_OPENERS`` (backends/open.py), and one line in ``MEMORY_TARGETS`` (tests/conftest.py), which
runs the memory conformance suite (tests/test_memory.py and every test using the ``store`` fixture)
on it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from langgraph.store.base import BaseStore

from astra_memory.errors import ConfigurationError
from astra_memory.stores.store_needs import StoreNeeds


@dataclass
class Backend:
    """An opened checkpointer (None when only the memory was asked for) and memory store."""

    kind: str  # the opener's name ("sqlite", "postgres", "actian"; "sqlite+actian": checkpoints + memory)
    checkpointer: Any
    store: BaseStore
    where: str  # human-readable location, password redacted
    pool: Any = None  # the psycopg ConnectionPool on PostgreSQL (shared with the cost ledger)
    threads: Any = None  # leases and the thread registry, beside the checkpoints (checkpoints/leases.py)
    memory_text: str = ""  # which memory this is, for people: its kind, place and the setting that chose it


class MemoryBackend(StoreNeeds):
    """A backend's store: ``StoreNeeds`` plus what ``memory migrate`` copies. A backend whose data
    cannot be listed this way leaves these two as they are, and cannot be a ``memory migrate`` end."""

    def record_keys(self, namespace: tuple[str, ...]) -> list[str]:
        """Every record key in ``namespace``, in key order (backends/migrate.py says why not offsets)."""
        raise ConfigurationError(f"{type(self).__name__} cannot list its records: it cannot be a `memory migrate` end")

    def stored_vectors(self, namespace: tuple[str, ...], field: str) -> dict[str, list[float]]:
        """``{key: vector}`` of one embedded field, as the backend stored it (copied, never recomputed)."""
        raise ConfigurationError(f"{type(self).__name__} cannot read its vectors: it cannot be a `memory migrate` end")


@dataclass(frozen=True)
class MemoryOpener:
    """How one backend opens the memory alone, at a target the user gave (a path or a URL).

    ``open(target, embeddings, *, setting, must_exist, pool_size)`` is a context manager yielding a
    ``Backend`` without checkpoints; ``setting`` names where the target came from, for messages."""

    name: str
    claims: Callable[[str], bool]
    open: Callable[..., AbstractContextManager[Backend]]
    example: str  # what a target looks like, for the message when no backend claims one


def backend_store(store: BaseStore) -> MemoryBackend:
    """``store`` as a ``MemoryBackend``, or the error ``memory migrate`` gives for a store no backend opened."""
    if not isinstance(store, MemoryBackend):
        raise ConfigurationError(f"{type(store).__name__} was not opened by a memory backend: it cannot be a "
                                 "`memory migrate` end")
    return store

"""What the fix memory needs of its store beyond LangGraph's ``BaseStore``: asked of the store, never
guessed from its type.

Each memory backend (``astra_memory/backends/``: SQLite, PostgreSQL, Actian VectorAI DB) opens a store
that is a ``StoreNeeds`` and answers for itself: how records are locked across processes, what its own
delete leaves behind, which stored vectors its searches skip. ``stores/`` imports no backend; it only
asks. A store that is not a ``StoreNeeds`` (LangGraph's ``InMemoryStore``, the langgraph dev server's
own store) gets the defaults: this process's lock only (``stores/locks.py``), nothing left to purge
after a delete, no vector skipped.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext

from langgraph.store.base import BaseStore

EMBEDDED_FIELD = "embed_text"  # the record field every backend embeds (its symptom and fix text)


class StoreNeeds:
    """The defaults; a backend's store overrides what it does otherwise (see the module docstring)."""

    def records_lock(self, keys: list[str]) -> AbstractContextManager[None]:
        """Hold the locks of the records ``keys`` against other processes (the caller already holds this
        process's lock: ``stores/locks.py``). Default: nothing beyond this process."""
        return nullcontext()

    def delete_vectors(self, namespace: tuple[str, ...], key: str) -> None:
        """After ``delete(namespace, key)``: remove the record's vectors if the store's own delete left
        them behind. Default: nothing (the delete removed them)."""

    def skipped_vectors(self, namespace_prefix: tuple[str, ...]) -> list[tuple[str, str, float]]:
        """(namespace, key, dimensions) of stored vectors of another length than the index's, which the
        store's searches skip. Default: none."""
        return []

    def unreadable_rows(self, namespace_prefix: tuple[str, ...]) -> list[str]:
        """Keys of rows whose value cannot be read at all (not valid JSON), which a search with a filter passes
        over (no field of theirs can be read to match it). Default: none (the store cannot hold such a row)."""
        return []


_DEFAULTS = StoreNeeds()


def needs_of(store: BaseStore) -> StoreNeeds:
    """``store`` itself when a backend opened it, else the defaults."""
    return store if isinstance(store, StoreNeeds) else _DEFAULTS


def delete_item(store: BaseStore, namespace: tuple[str, ...], key: str) -> bool:
    """Delete one stored item (a fix, an attempt) and its vectors; False if there was none.

    Read raw, never validated: a damaged row (a value that no longer validates as a record) must be
    deletable, or the only way to repair memory would be to edit the file by hand."""
    if store.get(namespace, key) is None:
        return False
    store.delete(namespace, key)
    needs_of(store).delete_vectors(namespace, key)
    return True

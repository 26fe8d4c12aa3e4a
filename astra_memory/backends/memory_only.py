"""Open only the fix memory, for the `memory` commands: no graph, no nodes, no model client.

A separate module from ``session`` on purpose: importing ``session`` compiles in LangGraph's graph
machinery and every node, which a command that only searches the memory never uses (measured: a
cold ``memory search`` 7.0 s -> 6.4 s docs/results.md "Cold start").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from astra_memory.backends.open import open_backend
from astra_memory.context import Context
from astra_memory.db.datafiles import explain
from astra_memory.settings import Settings
from astra_memory.stores.embeddings import make_embeddings
from astra_memory.stores.memory import FixMemory
from astra_memory.stores.namespaces import namespace_for


def ensure_home(settings: Settings) -> None:
    """Create the data folder, or say which folder cannot be created and why."""
    try:
        settings.ensure_home()
    except OSError as exc:
        raise explain(exc, settings.home, action="create") from None


@contextmanager
def open_memory(settings: Settings | None = None, *, namespace: str | None = None,
                read_only: bool = False) -> Iterator[FixMemory]:
    """Only the fix memory (for the `memory` commands), in ``namespace`` (default: ASTRA_NAMESPACE, else
    shared); ``read_only`` for list/search/show (works on a read-only ASTRA_HOME)."""
    settings = settings or Settings()
    context = Context()
    where = namespace_for(context.namespace if namespace is None else namespace)  # bad names fail before opening
    if not (read_only and settings.memory_path.is_file()):
        ensure_home(settings)
    embeddings = make_embeddings(settings.embeddings, settings.embedding_model_path)
    with open_backend(settings, embeddings, checkpointer=False, read_only=read_only) as backend:
        yield FixMemory(backend.store, min_score=context.min_score, floor=context.min_fused_score, namespace=where)

"""Open only the fix memory, for the `memory` commands: no graph, no nodes, no model client.

A separate module from ``session`` on purpose: importing ``session`` compiles in LangGraph's graph
machinery and every node, which a command that only searches the memory never uses (measured: a
cold ``memory search`` 7.0 s -> 6.4 s on this machine; README "Cold start").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from astra_memory.backends import open_backend
from astra_memory.context import Context
from astra_memory.settings import Settings
from astra_memory.stores.embeddings import make_embeddings
from astra_memory.stores.memory import FixMemory


@contextmanager
def open_memory(settings: Settings | None = None) -> Iterator[FixMemory]:
    """Only the fix memory (for the `memory` commands)."""
    settings = settings or Settings()
    settings.ensure_home()
    embeddings = make_embeddings(settings.embeddings, settings.embedding_model_path)
    with open_backend(settings, embeddings, checkpointer=False) as backend:
        yield FixMemory(backend.store, min_score=Context().min_score)

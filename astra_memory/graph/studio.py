"""The compiled graph for ``langgraph dev`` / LangGraph Studio (see langgraph.json).

Studio supplies the checkpointer and the store. Scripts use ``astra_memory.graph.builder`` and
compile their own.
"""

from astra_memory.graph import graph

__all__ = ["graph"]

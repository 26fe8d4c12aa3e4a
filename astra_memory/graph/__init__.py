"""The agent graph: ``builder`` (uncompiled) and ``graph`` (compiled, for LangGraph Studio).

Scripts compile their own copy with a checkpointer and a store::

    from astra_memory.graph import builder
    graph = builder.compile(checkpointer=saver, store=store)

``graph`` here has neither: ``langgraph dev`` / Studio provide both (see langgraph.json, which
loads ``astra_memory/graph/studio.py``).

``builder`` and ``graph`` are built on first access (PEP 562), not at import: the nodes import
``astra_memory.graph.context`` and ``astra_memory.graph.routing``, so building the graph while
this package is first imported would import the nodes half-way (a circular import whenever a
node module was imported first).
"""

from typing import TYPE_CHECKING, Any

from astra_memory.graph.context import Context
from astra_memory.graph.state import AgentState

if TYPE_CHECKING:
    from langgraph.graph import StateGraph
    from langgraph.graph.state import CompiledStateGraph

    builder: StateGraph
    graph: CompiledStateGraph

__all__ = ["AgentState", "Context", "builder", "build_graph", "graph"]


def __getattr__(name: str) -> Any:
    if name == "build_graph":
        from astra_memory.graph.builder import build_graph

        return build_graph
    if name in ("builder", "graph"):
        from astra_memory.graph.builder import build_graph

        built = build_graph()
        globals().update(builder=built, graph=built.compile())  # once per process
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""The agent graph: ``builder`` (uncompiled) and ``graph`` (compiled, for LangGraph Studio).

Scripts compile their own copy with a checkpointer and a store::

    from astra_memory.graph import builder
    graph = builder.compile(checkpointer=saver, store=store)

``graph`` here has neither: ``langgraph dev`` / Studio provide both (see langgraph.json).
This package is the top of the agent: it imports the nodes, and nothing below it imports it.
"""

from astra_memory.graph.builder import build_graph

builder = build_graph()
graph = builder.compile()

__all__ = ["build_graph", "builder", "graph"]

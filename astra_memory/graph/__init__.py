"""The agent graph: ``builder`` (uncompiled) and ``graph`` (compiled, for LangGraph Studio).

Scripts compile their own copy with a checkpointer and a store::

    graph = builder.compile(checkpointer=saver, store=store)

``graph`` here has neither: ``langgraph dev`` / Studio provide both (see langgraph.json).
"""

from astra_memory.graph.builder import build_graph
from astra_memory.graph.context import Context
from astra_memory.graph.state import AgentState

builder = build_graph()
graph = builder.compile()

__all__ = ["AgentState", "Context", "builder", "build_graph", "graph"]

"""The compiled graph for ``langgraph dev`` / LangGraph Studio (see langgraph.json).

Studio supplies the checkpointer and the store (configured in langgraph.json), so the graph is
compiled without them here. Scripts use ``astra_memory.graph.builder`` and compile their own.
"""

from astra_memory.graph import builder

graph = builder.compile()

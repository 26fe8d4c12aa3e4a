"""The learn graph: ``select`` walks the history once, ``commit`` judges one candidate per step until
none is left. Compiled with the project's checkpointer (checkpoints/) and the fix memory's store, so
a learn killed part way is resumed by its thread id from the next commit (learn/session.py)."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from astra_memory.learn.commit_node import commit
from astra_memory.learn.select_node import select
from astra_memory.learn.state import LearnState


def _done(state: LearnState) -> dict:
    return {"status": "done", "last_node": "done"}


def _next(state: LearnState) -> str:
    return "commit" if (state.get("position") or 0) < len(state.get("candidates") or []) else "done"


def build() -> StateGraph:
    graph = StateGraph(LearnState)
    graph.add_node("select", select)
    graph.add_node("commit", commit)
    graph.add_node("done", _done)
    graph.add_edge(START, "select")
    graph.add_conditional_edges("select", _next, {"commit": "commit", "done": "done"})
    graph.add_conditional_edges("commit", _next, {"commit": "commit", "done": "done"})
    graph.add_edge("done", END)
    return graph


def compile(*, checkpointer=None, store=None):
    return build().compile(checkpointer=checkpointer, store=store)

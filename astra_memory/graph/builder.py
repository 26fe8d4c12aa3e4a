"""Build the StateGraph. The edges are the gates; see routing.py."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from langgraph.graph import END, START, StateGraph

from astra_memory.context import Context
from astra_memory.nodes.approve import approve
from astra_memory.nodes.confirm import confirm
from astra_memory.nodes.diagnosis_search import diagnosis_search
from astra_memory.nodes.edit import edit
from astra_memory.nodes.investigate import investigate
from astra_memory.nodes.memory_search import memory_search
from astra_memory.nodes.observe import observe
from astra_memory.nodes.prepare import prepare
from astra_memory.nodes.replay import replay
from astra_memory.nodes.report import report
from astra_memory.nodes.store import store
from astra_memory.nodes.test import test
from astra_memory.nodes.tools import tools
from astra_memory.rules.routing import (
    route_after_approve,
    route_after_confirm,
    route_after_investigate,
    route_after_observe,
    route_after_replay,
    route_after_step,
    route_after_test,
)
from astra_memory.state import AgentState, InputState


def stamped(name: str, node: Callable[..., dict]) -> Callable[..., dict]:
    """``node`` with ``last_node`` set to its name in every update it returns: one place writes it,
    not every return of every node. ``functools.wraps`` keeps the node's signature, from which
    LangGraph decides what to pass it (runtime, config)."""

    @functools.wraps(node)
    def run(*args: Any, **kwargs: Any) -> dict:
        return {**node(*args, **kwargs), "last_node": name}

    return run


class _Builder(StateGraph):
    def add_node(self, name: str, node: Callable[..., dict], **kwargs: Any):  # type: ignore[override]
        return super().add_node(name, stamped(name, node), **kwargs)


def build_graph() -> StateGraph:
    builder = _Builder(AgentState, input_schema=InputState, context_schema=Context)
    builder.add_node("prepare", prepare)  # checks and completes the input task
    builder.add_node("observe", observe)
    builder.add_node("memory_search", memory_search)
    builder.add_node("replay", replay)
    builder.add_node("investigate", investigate)
    builder.add_node("tools", tools)
    builder.add_node("diagnosis_search", diagnosis_search)  # memory searched with the model's diagnosis
    builder.add_node("approve", approve)  # a human's yes before each edit, when the task asks for it
    builder.add_node("edit", edit)
    builder.add_node("test", test)
    builder.add_node("confirm", confirm)
    builder.add_node("store", store)
    builder.add_node("report", report)

    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "observe")
    builder.add_conditional_edges("observe", route_after_observe)
    builder.add_edge("memory_search", "replay")  # the only way in: memory first
    builder.add_conditional_edges("replay", route_after_replay)
    builder.add_conditional_edges("investigate", route_after_investigate)
    builder.add_conditional_edges("approve", route_after_approve)
    builder.add_conditional_edges("tools", route_after_step)
    builder.add_conditional_edges("diagnosis_search", route_after_step)
    builder.add_conditional_edges("edit", route_after_step)
    builder.add_conditional_edges("test", route_after_test)
    builder.add_conditional_edges("confirm", route_after_confirm)
    builder.add_edge("store", "report")
    builder.add_edge("report", END)
    return builder

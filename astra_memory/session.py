"""Run and resume sessions: open the durable checkpointer and memory, compile the graph, stream it.

This is the library API the CLI and the demo are thin layers over; scripts can call it too.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command

from astra_memory.backends import open_backend, open_cost_ledger
from astra_memory.checkpoints import thread_ids
from astra_memory.context import Context, recorded_knobs, session_context
from astra_memory.crash import crash_point
from astra_memory.errors import AstraError
from astra_memory.graph import builder
from astra_memory.models.live import is_live, preflight
from astra_memory.redact import scrub_data
from astra_memory.settings import Settings
from astra_memory.state import Task
from astra_memory.stores.embeddings import make_embeddings
from astra_memory.stores.memory import FixMemory
from astra_memory.tasks import scenario_task, workspace_task  # noqa: F401  (the library API)
from astra_memory.stores.namespaces import namespace_for

RECURSION_LIMIT = 200
OnUpdate = Callable[[str, dict[str, Any]], None]
OnApproval = Callable[[dict[str, Any]], Any]  # an approval request -> the answer (nodes/approve.py)


class UnknownThreadError(AstraError):
    """No checkpoint exists for the thread id."""


@dataclass
class Agent:
    """A compiled graph with its durable checkpointer and fix memory."""

    graph: CompiledStateGraph
    memory: FixMemory
    settings: Settings
    ledger: Any = None  # costs.ledger.CostLedger: every live request is reserved here before it is sent

    def config(self, thread_id: str) -> dict:
        return {"configurable": {"thread_id": thread_id}, "recursion_limit": RECURSION_LIMIT}


@contextmanager
def open_agent(settings: Settings | None = None) -> Iterator[Agent]:
    """Open the checkpointer, the memory and the cost ledger (see astra_memory.backends) and compile the graph."""
    settings = settings or Settings()
    settings.ensure_home()
    embeddings = make_embeddings(settings.embeddings, settings.embedding_model_path)
    # SQLite files under settings.home, or one PostgreSQL database when ASTRA_DATABASE_URL is set.
    with open_backend(settings, embeddings) as backend, open_cost_ledger(settings, backend) as ledger:
        graph = builder.compile(checkpointer=backend.checkpointer, store=backend.store)
        context = Context()
        yield Agent(graph, FixMemory(backend.store, min_score=context.min_score,
                                     namespace=namespace_for(context.namespace)), settings, ledger)


@contextmanager
def open_memory(settings: Settings | None = None, *, namespace: str | None = None) -> Iterator[FixMemory]:
    """Only the fix memory (for the `memory` commands), in ``namespace`` (default: ASTRA_NAMESPACE, else shared)."""
    settings = settings or Settings()
    settings.ensure_home()
    context = Context()
    where = namespace_for(context.namespace if namespace is None else namespace)  # bad names fail before opening
    embeddings = make_embeddings(settings.embeddings, settings.embedding_model_path)
    with open_backend(settings, embeddings, checkpointer=False) as backend:
        yield FixMemory(backend.store, min_score=context.min_score, namespace=where)


def new_thread_id(prefix: str = "session") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


class StopAsking(Exception):
    """Raised by an ``on_approval`` callback that cannot answer now (no terminal, end of input):
    the session stays waiting at its approval, and ``resume`` asks again."""


def pending_approval(agent: Agent, thread_id: str) -> dict[str, Any] | None:
    """The approval request a thread is waiting on (nodes/approve.py), or None."""
    snapshot = agent.graph.get_state(agent.config(thread_id))
    for interrupt in getattr(snapshot, "interrupts", ()) or ():
        if isinstance(interrupt.value, dict) and interrupt.value.get("kind") in ("approve_edit", "approve_replay"):
            return interrupt.value
    return None


def _drive(agent: Agent, payload: Any, thread_id: str, context: Context,
           on_update: OnUpdate | None, on_approval: OnApproval | None = None) -> dict[str, Any]:
    """Stream the graph; at an approval request, ask ``on_approval`` and continue with its answer
    (``Command(resume=...)``). Without an answer the thread stays waiting (``pending_approval``)."""
    while True:
        for chunk in agent.graph.stream(payload, agent.config(thread_id), context=context,
                                        stream_mode="updates", durability="sync"):
            for node, update in chunk.items():
                if on_update is not None and not node.startswith("__"):
                    on_update(node, update or {})
                crash_point(f"after:{node}")  # the node's checkpoint is written (durability="sync")
        request = pending_approval(agent, thread_id) if on_approval is not None else None
        if request is None:
            break
        try:
            payload = Command(resume=on_approval(request))
        except StopAsking:
            break
    return agent.graph.get_state(agent.config(thread_id)).values


def _guarded(agent: Agent, context: Context, task: Task) -> Context:
    """The cost guard for live models: the agent's ledger in the context (unless the caller brought
    one, as the demo does to count against the main data directory), and the local preflight checks
    (approval, API key, price, limits) before any node runs."""
    if context.ledger is None and agent.ledger is not None:
        context = replace(context, ledger=agent.ledger)
    name = context.model or task.get("model")
    if is_live(name):
        preflight(name, context)
    return context


def start_session(agent: Agent, task: Task, *, context: Context | None = None,
                  on_update: OnUpdate | None = None, on_approval: OnApproval | None = None) -> dict[str, Any]:
    """Run a new session to its end; returns the final state.

    The session's knobs (model, limits, live settings) are recorded in its task, so that a resume
    runs under the same ones.
    """
    if agent.graph.get_state(agent.config(task["session_id"])).values:
        raise AstraError(f"thread {task['session_id']} already exists; use `astra-memory resume` to continue it")
    context = _guarded(agent, context or Context(model=task.get("model")), task)
    task = {**task, "knobs": recorded_knobs(replace(context, model=context.model or task.get("model"))),
            **scrub_data({k: task[k] for k in ("prompt", "project") if k in task})}  # free text is checkpointed
    return _drive(agent, {"task": task}, task["session_id"], context, on_update, on_approval)


def thread_state(agent: Agent, thread_id: str):
    snapshot = agent.graph.get_state(agent.config(thread_id))
    return snapshot if snapshot.values else None


def recorded_of(task: Task) -> dict[str, Any]:
    """The knobs a session recorded (sessions from before ``knobs`` recorded only the live ones)."""
    if "knobs" in task:
        return dict(task["knobs"])
    return {"model": task.get("model"), **(task.get("live") or {})}


def resumed_context(agent: Agent, thread_id: str, given: Mapping[str, Any] | None = None,
                    base: Context | None = None) -> Context:
    """The context a resumed thread runs under: options ``given`` again win over what it recorded."""
    snapshot = thread_state(agent, thread_id)
    if snapshot is None:
        raise UnknownThreadError(f"no session with thread id {thread_id!r}; `astra-memory threads` lists them")
    return session_context(recorded_of(snapshot.values["task"]), given, base)


def resume_session(agent: Agent, thread_id: str, *, context: Context | None = None,
                   on_update: OnUpdate | None = None,
                   on_approval: OnApproval | None = None) -> tuple[dict[str, Any], bool]:
    """Continue a thread from its last checkpoint. Returns (final state, whether anything ran).

    Without a ``context`` the thread runs under the knobs it recorded (``resumed_context``). A thread
    waiting at an approval asks ``on_approval`` again (nothing was applied while it waited).
    """
    snapshot = thread_state(agent, thread_id)
    if snapshot is None:
        raise UnknownThreadError(f"no session with thread id {thread_id!r}; `astra-memory threads` lists them")
    if not snapshot.next:
        return snapshot.values, False
    context = _guarded(agent, context or resumed_context(agent, thread_id), snapshot.values["task"])
    return _drive(agent, None, thread_id, context, on_update, on_approval), True


def list_threads(agent: Agent) -> list[dict[str, Any]]:
    saver = agent.graph.checkpointer
    rows = []
    for tid in thread_ids(saver):
        snapshot = agent.graph.get_state(agent.config(tid))
        values = snapshot.values or {}
        task = values.get("task") or {}
        rows.append({
            "thread_id": tid,
            "status": values.get("status") or ("waiting_for_approval" if pending_approval(agent, tid)
                                               else "interrupted" if snapshot.next else "unknown"),
            "last_node": values.get("last_node"),
            "next": list(snapshot.next),
            "scenario": task.get("scenario"),
            "project": task.get("project"),
            "updated": snapshot.created_at,
        })
    return rows

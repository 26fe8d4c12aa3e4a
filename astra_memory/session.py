"""Run and resume sessions: open the durable checkpointer and memory, compile the graph, stream it.

This is the library API the CLI and the demo are thin layers over; scripts can call it too.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from langgraph.graph.state import CompiledStateGraph

from astra_memory.backends import open_backend, open_cost_ledger
from astra_memory.checkpoints import thread_ids
from astra_memory.context import Context, recorded_knobs, session_context
from astra_memory.crash import crash_point
from astra_memory.errors import AstraError, ScenarioError
from astra_memory.graph import builder
from astra_memory.memory_only import open_memory  # noqa: F401  (library API: session.open_memory)
from astra_memory.preflight import check_session
from astra_memory.scenarios import Scenario
from astra_memory.settings import Settings
from astra_memory.state import Task
from astra_memory.stores.embeddings import make_embeddings
from astra_memory.stores.memory import FixMemory
from astra_memory.testrun import TestRun, run_tests

RECURSION_LIMIT = 200
OnUpdate = Callable[[str, dict[str, Any]], None]


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
        yield Agent(graph, FixMemory(backend.store, min_score=Context().min_score), settings, ledger)


def new_thread_id(prefix: str = "session") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def scenario_task(scenario: Scenario, settings: Settings, thread_id: str, model: str = "scripted") -> Task:
    """A task on a fresh copy of a bundled scenario, under the session's run directory."""
    run_dir = settings.run_dir(thread_id)
    workspace = scenario.copy_to(run_dir / "workspace")
    return Task(workspace=str(workspace.resolve()), test_command=scenario.test_command, prompt=scenario.prompt,
                project=scenario.project, scenario=scenario.name, script=scenario.solution, model=model,
                protected=list(scenario.protected), test_env=dict(scenario.env), run_dir=str(run_dir.resolve()),
                session_id=thread_id)


def workspace_task(workspace: Path, test_command: str, settings: Settings, thread_id: str, *,
                   prompt: str = "", model: str = "scripted", protected: list[str] | None = None) -> Task:
    """A task on the user's own project, edited in place."""
    workspace = workspace.resolve()
    if not workspace.is_dir():
        raise ScenarioError(f"workspace {workspace} is not a directory")
    run_dir = settings.run_dir(thread_id)
    run_dir.mkdir(parents=True, exist_ok=True)
    return Task(workspace=str(workspace), test_command=test_command,
                prompt=prompt or f"The tests (`{test_command}`) fail. Fix the source so that they pass.",
                project=workspace.name, scenario=None, script=None, model=model,
                protected=protected if protected is not None else ["tests"],
                run_dir=str(run_dir.resolve()), session_id=thread_id)


def _drive(agent: Agent, payload: dict | None, thread_id: str, context: Context,
           on_update: OnUpdate | None) -> dict[str, Any]:
    for chunk in agent.graph.stream(payload, agent.config(thread_id), context=context,
                                    stream_mode="updates", durability="sync"):
        for node, update in chunk.items():
            if on_update is not None and not node.startswith("__"):
                on_update(node, update or {})
            crash_point(f"after:{node}")  # the node's checkpoint is written (durability="sync")
    return agent.graph.get_state(agent.config(thread_id)).values


def _guarded(agent: Agent, context: Context, task: Task) -> Context:
    """The cost guard for live models: the agent's ledger in the context (unless the caller brought
    one, as the demo does to count against the main data directory), and the local preflight checks
    (workspace, test command; approval, API key, price, limits) before any node runs."""
    if context.ledger is None and agent.ledger is not None:
        context = replace(context, ledger=agent.ledger)
    check_session(context.model or task.get("model"), context, workspace=task["workspace"],
                  test_command=task["test_command"])
    return context


def start_session(agent: Agent, task: Task, *, context: Context | None = None,
                  on_update: OnUpdate | None = None) -> dict[str, Any]:
    """Run a new session to its end; returns the final state.

    The session's knobs (model, limits, live settings) are recorded in its task, so that a resume
    runs under the same ones.
    """
    if agent.graph.get_state(agent.config(task["session_id"])).values:
        raise AstraError(f"thread {task['session_id']} already exists; use `astra-memory resume` to continue it")
    context = _guarded(agent, context or Context(model=task.get("model")), task)
    task = {**task, "knobs": recorded_knobs(replace(context, model=context.model or task.get("model")))}
    return _drive(agent, {"task": task}, task["session_id"], context, on_update)


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
                   on_update: OnUpdate | None = None) -> tuple[dict[str, Any], bool]:
    """Continue a thread from its last checkpoint. Returns (final state, whether anything ran).

    Without a ``context`` the thread runs under the knobs it recorded (``resumed_context``).
    """
    snapshot = thread_state(agent, thread_id)
    if snapshot is None:
        raise UnknownThreadError(f"no session with thread id {thread_id!r}; `astra-memory threads` lists them")
    if not snapshot.next:
        return snapshot.values, False
    context = _guarded(agent, context or resumed_context(agent, thread_id), snapshot.values["task"])
    return _drive(agent, None, thread_id, context, on_update), True


def list_threads(agent: Agent) -> list[dict[str, Any]]:
    saver = agent.graph.checkpointer
    rows = []
    for tid in thread_ids(saver):
        snapshot = agent.graph.get_state(agent.config(tid))
        values = snapshot.values or {}
        task = values.get("task") or {}
        rows.append({
            "thread_id": tid,
            "status": values.get("status") or ("interrupted" if snapshot.next else "unknown"),
            "last_node": values.get("last_node"),
            "next": list(snapshot.next),
            "scenario": task.get("scenario"),
            "project": task.get("project"),
            "updated": snapshot.created_at,
        })
    return rows


def retest_on_original(scenario: Scenario, workspace: Path, destination: Path) -> TestRun:
    """Re-run the scenario's original, untouched tests against the fixed source in a fresh copy.

    A fix that edited the acceptance tests does not count: the tests come from the template.
    """
    scenario.copy_to(destination)
    for source in Path(workspace).rglob("*"):
        rel = source.relative_to(workspace)
        if source.is_dir() or "__pycache__" in rel.parts or any(
            rel.as_posix() == p or rel.as_posix().startswith(p + "/") for p in scenario.protected
        ):
            continue
        target = destination / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(source.read_bytes())
    return run_tests(destination, scenario.test_command, env=scenario.env)

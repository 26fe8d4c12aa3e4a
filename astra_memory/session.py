"""Run and resume sessions: open the durable checkpointer and memory, compile the graph, stream it.

This is the library API the CLI and the demo are thin layers over; scripts can call it too.
"""

from __future__ import annotations

import shlex
import shutil
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from langgraph.graph.state import CompiledStateGraph

from astra_memory.backends import open_backend, open_cost_ledger
from astra_memory.checkpoints import thread_ids
from astra_memory.checkpoints.leases import Lease, ThreadTables
from astra_memory.context import Context, recorded_knobs, session_context
from astra_memory.crash import crash_point
from astra_memory.datafiles import explain, file_of, storage_errors
from astra_memory.errors import AstraError, ScenarioError
from astra_memory.graph import builder
from astra_memory.models.live import is_live, preflight
from astra_memory.scenarios import Scenario
from astra_memory.settings import Settings
from astra_memory.state import Task
from astra_memory.stores.embeddings import make_embeddings
from astra_memory.stores.memory import FixMemory
from astra_memory.testrun import TestRun, run_tests
from astra_memory.thread_names import check_thread_id, slug

RECURSION_LIMIT = 200
OnUpdate = Callable[[str, dict[str, Any]], None]


class UnknownThreadError(AstraError):
    """No checkpoint and no registration exists for the thread id."""


@dataclass
class Agent:
    """A compiled graph with its durable checkpointer and fix memory."""

    graph: CompiledStateGraph
    memory: FixMemory | None
    settings: Settings
    ledger: Any = None  # costs.ledger.CostLedger: every live request is reserved here before it is sent
    threads: ThreadTables | None = None  # leases (one runner per thread) and the thread registry
    leases: dict[str, Lease] = field(default_factory=dict)  # the threads this process runs now

    def config(self, thread_id: str) -> dict:
        return {"configurable": {"thread_id": thread_id}, "recursion_limit": RECURSION_LIMIT}


def _home(settings: Settings) -> None:
    try:
        settings.ensure_home()
    except OSError as exc:
        raise explain(exc, settings.home, action="create") from None


@contextmanager
def open_agent(settings: Settings | None = None) -> Iterator[Agent]:
    """Open the checkpointer, the memory and the cost ledger (see astra_memory.backends) and compile the graph."""
    settings = settings or Settings()
    _home(settings)
    embeddings = make_embeddings(settings.embeddings, settings.embedding_model_path)
    # SQLite files under settings.home, or one PostgreSQL database when ASTRA_DATABASE_URL is set.
    with open_backend(settings, embeddings) as backend, open_cost_ledger(settings, backend) as ledger:
        graph = builder.compile(checkpointer=backend.checkpointer, store=backend.store)
        yield Agent(graph, FixMemory(backend.store, min_score=Context().min_score), settings, ledger,
                    backend.threads)


@contextmanager
def open_reader(settings: Settings | None = None) -> Iterator[Agent]:
    """The checkpoints alone, read-only where the files exist (``threads`` on a read-only ASTRA_HOME).

    On PostgreSQL this is ``open_agent``: read-only access there is the database role's business."""
    settings = settings or Settings()
    if settings.database_url:
        with open_agent(settings) as agent:
            yield agent
        return
    if not settings.checkpoint_path.is_file():
        _home(settings)
    with open_backend(settings, None, store=False, read_only=True) as backend:
        yield Agent(builder.compile(checkpointer=backend.checkpointer), None, settings, None, backend.threads)


@contextmanager
def open_memory(settings: Settings | None = None, *, read_only: bool = False) -> Iterator[FixMemory]:
    """Only the fix memory (for the `memory` commands); ``read_only`` for list/search/show."""
    settings = settings or Settings()
    if not (read_only and settings.memory_path.is_file()):
        _home(settings)
    embeddings = make_embeddings(settings.embeddings, settings.embedding_model_path)
    with open_backend(settings, embeddings, checkpointer=False, read_only=read_only) as backend:
        yield FixMemory(backend.store, min_score=Context().min_score)


@contextmanager
def claimed(agent: Agent, thread_id: str) -> Iterator[None]:
    """Hold the thread's lease for the block: one runner per thread (see checkpoints/leases.py).

    Re-entrant within one process (`run` claims the thread before copying the workspace, then
    ``start_session`` runs inside the same claim). A second process gets ThreadBusyError naming
    the holder."""
    check_thread_id(thread_id)
    if agent.threads is None or thread_id in agent.leases:
        yield
        return
    lease = agent.threads.acquire(thread_id)
    agent.leases[thread_id] = lease
    try:
        yield
    finally:
        agent.leases.pop(thread_id, None)
        lease.release()


def thread_known(agent: Agent, thread_id: str) -> bool:
    """Whether the thread has a checkpoint or was registered by `run` (then it can only be resumed)."""
    if agent.graph.get_state(agent.config(thread_id)).values:
        return True
    return agent.threads is not None and agent.threads.registered(thread_id) is not None


def fresh_run_dir(agent: Agent, thread_id: str) -> None:
    """Before a new thread copies its workspace: refuse an id in use, and clear a copy a process
    killed while copying left behind (no checkpoint and no registration refer to it; the caller
    holds the thread's lease, so nobody else is writing it)."""
    if thread_known(agent, thread_id):
        raise AstraError(f"thread {thread_id} already exists; use `astra-memory resume {thread_id}` to continue it")
    leftover = agent.settings.run_dir(thread_id) / "workspace"
    if leftover.is_dir() and not leftover.is_symlink():
        shutil.rmtree(leftover)


def new_thread_id(prefix: str = "session") -> str:
    """A fresh, safe id; ``prefix`` may be a scenario name or path (its last part, made a safe slug)."""
    return f"{slug(Path(prefix).name)}-{uuid.uuid4().hex[:12]}"


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
    try:
        shlex.split(test_command)
    except ValueError as exc:  # e.g. an unbalanced quote
        raise ScenarioError(f"--test-command {test_command!r} cannot be parsed: {exc}") from None
    run_dir = settings.run_dir(thread_id)
    run_dir.mkdir(parents=True, exist_ok=True)
    return Task(workspace=str(workspace), test_command=test_command,
                prompt=prompt or f"The tests (`{test_command}`) fail. Fix the source so that they pass.",
                project=workspace.name, scenario=None, script=None, model=model,
                protected=protected if protected is not None else ["tests"],
                run_dir=str(run_dir.resolve()), session_id=thread_id)


def _drive(agent: Agent, payload: dict | None, thread_id: str, context: Context,
           on_update: OnUpdate | None) -> dict[str, Any]:
    lease = agent.leases.get(thread_id)
    try:
        for chunk in agent.graph.stream(payload, agent.config(thread_id), context=context,
                                        stream_mode="updates", durability="sync"):
            for node, update in chunk.items():
                if on_update is not None and not node.startswith("__"):
                    on_update(node, update or {})
                crash_point(f"after:{node}")  # the node's checkpoint is written (durability="sync")
            if lease is not None:
                lease.check()  # a runner that lost its lease stops at the next node boundary
        return agent.graph.get_state(agent.config(thread_id)).values
    except storage_errors() as exc:  # a full disk, a read-only file, a damaged page met mid-run
        raise explain(exc, file_of(exc, agent.settings.home), thread_id=thread_id, action="write") from None


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
                  on_update: OnUpdate | None = None) -> dict[str, Any]:
    """Run a new session to its end; returns the final state.

    The session's knobs (model, limits, live settings) are recorded in its task, so that a resume
    runs under the same ones.
    """
    thread_id = check_thread_id(task["session_id"])
    with claimed(agent, thread_id):
        if thread_known(agent, thread_id):
            raise AstraError(f"thread {thread_id} already exists; use `astra-memory resume {thread_id}` to continue it")
        context = _guarded(agent, context or Context(model=task.get("model")), task)
        task = {**task, "knobs": recorded_knobs(replace(context, model=context.model or task.get("model")))}
        if agent.threads is not None:
            agent.threads.register(thread_id, dict(task))  # from now on `resume` can start it
        crash_point("session:registered")
        return _drive(agent, {"task": task}, thread_id, context, on_update)


def thread_state(agent: Agent, thread_id: str):
    snapshot = agent.graph.get_state(agent.config(check_thread_id(thread_id)))
    return snapshot if snapshot.values else None


def registered_task(agent: Agent, thread_id: str) -> Task | None:
    """The task `run` registered for a thread (None if it was never accepted, or on a bare graph)."""
    return agent.threads.registered(thread_id) if agent.threads is not None else None


def _task_of(agent: Agent, thread_id: str) -> Task:
    snapshot = thread_state(agent, thread_id)
    task = snapshot.values["task"] if snapshot is not None else registered_task(agent, thread_id)
    if task is None:
        raise UnknownThreadError(f"no session with thread id {thread_id!r}; `astra-memory threads` lists them")
    return task


def recorded_of(task: Task) -> dict[str, Any]:
    """The knobs a session recorded (sessions from before ``knobs`` recorded only the live ones)."""
    if "knobs" in task:
        return dict(task["knobs"])
    return {"model": task.get("model"), **(task.get("live") or {})}


def resumed_context(agent: Agent, thread_id: str, given: Mapping[str, Any] | None = None,
                    base: Context | None = None) -> Context:
    """The context a resumed thread runs under: options ``given`` again win over what it recorded."""
    return session_context(recorded_of(_task_of(agent, thread_id)), given, base)


def resume_session(agent: Agent, thread_id: str, *, context: Context | None = None,
                   on_update: OnUpdate | None = None) -> tuple[dict[str, Any], bool]:
    """Continue a thread from its last checkpoint. Returns (final state, whether anything ran).

    Without a ``context`` the thread runs under the knobs it recorded (``resumed_context``). A
    thread `run` accepted but that was killed before its first checkpoint starts from the
    beginning with the task it registered. The thread's lease is held while it runs.
    """
    with claimed(agent, thread_id):
        snapshot = thread_state(agent, thread_id)
        task = _task_of(agent, thread_id)
        if snapshot is not None and not snapshot.next:
            return snapshot.values, False
        context = _guarded(agent, context or resumed_context(agent, thread_id), task)
        payload = None if snapshot is not None else {"task": task}
        return _drive(agent, payload, thread_id, context, on_update), True


def list_threads(agent: Agent) -> list[dict[str, Any]]:
    """Every thread with a checkpoint, then those `run` accepted that have none yet ("not started")."""
    saver = agent.graph.checkpointer
    rows = []
    listed = thread_ids(saver)
    for tid in listed:
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
    for tid, registered_at in (agent.threads.registered_ids() if agent.threads is not None else []):
        if tid in listed:
            continue
        task = agent.threads.registered(tid) or {}
        rows.append({"thread_id": tid, "status": "not started", "last_node": None, "next": ["observe"],
                     "scenario": task.get("scenario"), "project": task.get("project"), "updated": registered_at})
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

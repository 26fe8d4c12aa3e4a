"""Run and resume sessions: open the durable checkpointer and memory, compile the graph, stream it.

This is the library API the CLI and the demo are thin layers over; scripts can call it too.
"""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command

from astra_memory.backends.memory_only import ensure_home, open_memory  # noqa: F401  (library API: session.open_memory)
from astra_memory.backends.open import open_backend, open_cost_ledger
from astra_memory.checkpoints import DamagedCheckpointError, thread_ids
from astra_memory.checkpoints.leases import Lease, ThreadTables
from astra_memory.context import Context, recorded_knobs, session_context
from astra_memory.crash import crash_point, watch_writes
from astra_memory.db.datafiles import explain, file_of, storage_errors
from astra_memory.errors import AstraError
from astra_memory.graph import builder
from astra_memory.redact import scrub_data
from astra_memory.rules.approval import REQUEST_KINDS
from astra_memory.session.hints import resume_command
from astra_memory.session.preflight import check_session
from astra_memory.settings import Settings
from astra_memory.state import STATE_VERSION, Task
from astra_memory.stores.embeddings import make_embeddings
from astra_memory.stores.memory import FixMemory
from astra_memory.stores.namespaces import namespace_for
from astra_memory.tasks import scenario_task, workspace_task  # noqa: F401  (the library API)
from astra_memory.thread_names import check_thread_id, slug

RECURSION_LIMIT = 200
OnUpdate = Callable[[str, dict[str, Any]], None]
OnStart = Callable[[str | None], None]  # a node began (its name), or nothing runs any more (None)
OnApproval = Callable[[dict[str, Any]], Any]  # an approval request -> the answer (nodes/approve.py)


class UnknownThreadError(AstraError):
    """No checkpoint and no registration exists for the thread id."""


class SessionError(AstraError):
    """A node raised an unexpected exception (a bug of ours, not the model's bad input; tools/guard.py):
    the session ended with status ``error`` at its last checkpoint, the pending step kept, so that
    ``resume`` retries it once the cause is removed."""

    status = "error"

    def __init__(self, message: str, *, thread_id: str, node: str | None) -> None:
        super().__init__(message)
        self.thread_id, self.node = thread_id, node


class CancelledThreadError(AstraError):
    """The thread was cancelled on purpose; ``resume`` refuses it unless asked to uncancel it."""


class EarlierVersionThreadError(AstraError):
    """The thread's checkpoint was written by an earlier version whose state this one reads otherwise."""


# State fields an earlier version wrote that this one names otherwise (0.1: ``confirmed_outcome``, set
# by a passing workspace run, is now ``passed_outcome``): named in the refusal when present.
RETIRED_FIELDS = {"confirmed_outcome": "passed_outcome"}


def refuse_earlier_version(agent: Agent, thread_id: str) -> None:
    """Raise ``EarlierVersionThreadError`` when the thread's last checkpoint was started by code of
    another ``STATE_VERSION`` (0.1 stamped none): the gates would read its state otherwise (a renamed
    field, a script with no diagnosis step), so it is refused in one line instead of run half right."""
    checkpointer = agent.graph.checkpointer
    saved = checkpointer.get_tuple(agent.config(thread_id)) if checkpointer else None
    values = saved.checkpoint.get("channel_values", {}) if saved else {}
    task = values.get("task") or {}
    if not task or task.get("state_version") == STATE_VERSION:
        return
    retired = [f"its state has {old!r}, now {new!r}" for old, new in RETIRED_FIELDS.items()
               if values.get(old) is not None]
    why = retired[0] if retired else f"state version {task.get('state_version', 1)}, this one reads {STATE_VERSION}"
    raise EarlierVersionThreadError(
        f"thread {thread_id!r} was started by an earlier version of astra-memory ({why}) and cannot be "
        "resumed safely: run the task again under a new thread id")


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


@contextmanager
def open_agent(settings: Settings | None = None, *, interrupt_before: tuple[str, ...] = ()) -> Iterator[Agent]:
    """Open the checkpointer, the memory and the cost ledger (see astra_memory.backends.open) and compile the graph.

    ``interrupt_before``: nodes the run stops before (LangGraph), the same graph otherwise: the MCP
    server stops before ``investigate``, where the calling agent takes the model's turn
    (astra_memory/mcp_server/fix_sessions.py)."""
    settings = settings or Settings()
    ensure_home(settings)
    embeddings = make_embeddings(settings.embeddings, settings.embedding_model_path)
    # SQLite files under settings.home, or one PostgreSQL database when ASTRA_DATABASE_URL is set.
    with open_backend(settings, embeddings) as backend, open_cost_ledger(settings, backend) as ledger:
        watch_writes(backend.checkpointer)
        graph = builder.compile(checkpointer=backend.checkpointer, store=backend.store,
                                interrupt_before=list(interrupt_before) or None)
        context = Context()
        yield Agent(graph, FixMemory(backend.store, min_score=context.min_score, floor=context.min_fused_score,
                                     namespace=namespace_for(context.namespace)), settings, ledger, backend.threads)


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
        ensure_home(settings)
    with open_backend(settings, None, store=False, read_only=True) as backend:
        yield Agent(builder.compile(checkpointer=backend.checkpointer), None, settings, None, backend.threads)


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


def refuse_known(agent: Agent, thread_id: str) -> None:
    """A new session needs a new thread id: an existing one can only be resumed."""
    if thread_known(agent, thread_id):
        raise AstraError(f"thread {thread_id} already exists; use `{resume_command(thread_id, thread_model(agent, thread_id))}` to continue it")


def fresh_run_dir(agent: Agent, thread_id: str) -> None:
    """Before a new thread copies its workspace: refuse an id in use, and clear a copy a process
    killed while copying left behind (no checkpoint and no registration refer to it; the caller
    holds the thread's lease, so nobody else is writing it)."""
    refuse_known(agent, thread_id)
    leftover = agent.settings.run_dir(thread_id) / "workspace"
    if leftover.is_dir() and not leftover.is_symlink():
        shutil.rmtree(leftover)


def new_thread_id(prefix: str = "session") -> str:
    """A fresh, safe id; ``prefix`` may be a scenario name or path (its last part, made a safe slug)."""
    return f"{slug(Path(prefix).name)}-{uuid.uuid4().hex[:12]}"


class StopAsking(Exception):
    """Raised by an ``on_approval`` callback that cannot answer now (no terminal, end of input):
    the session stays waiting at its approval, and ``resume`` asks again."""


def pending_approval(agent: Agent, thread_id: str) -> dict[str, Any] | None:
    """The approval request a thread is waiting on (nodes/approve.py, nodes/replay.py), or None."""
    snapshot = agent.graph.get_state(agent.config(thread_id))
    for interrupt in getattr(snapshot, "interrupts", ()) or ():
        if isinstance(interrupt.value, dict) and interrupt.value.get("kind") in REQUEST_KINDS:
            return interrupt.value
    return None


def _drive(agent: Agent, payload: Any, thread_id: str, context: Context,
           on_update: OnUpdate | None, on_approval: OnApproval | None = None,
           on_start: OnStart | None = None) -> dict[str, Any]:
    """Stream the graph; at an approval request, ask ``on_approval`` and continue with its answer
    (``Command(resume=...)``). Without an answer the thread stays waiting (``pending_approval``).
    ``on_start`` hears each node as it begins (LangGraph's ``tasks`` stream), and None when nothing
    runs any more (the end, an approval to ask, an error): what a progress display needs."""
    lease = agent.leases.get(thread_id)
    try:
        while True:
            try:
                for mode, chunk in agent.graph.stream(payload, agent.config(thread_id), context=context,
                                                      stream_mode=["updates", "tasks"], durability="sync"):
                    if mode == "tasks":
                        if on_start is not None and "result" not in chunk and not chunk["name"].startswith("__"):
                            on_start(chunk["name"])
                        continue
                    for node, update in chunk.items():
                        if on_update is not None and not node.startswith("__"):
                            on_update(node, update or {})
                        crash_point(f"after:{node}")  # the node's checkpoint is written (durability="sync")
                    if lease is not None:
                        lease.check()  # a runner that lost its lease stops at the next node boundary
            finally:
                if on_start is not None:
                    on_start(None)
            request = pending_approval(agent, thread_id) if on_approval is not None else None
            if request is None:
                break
            try:
                payload = Command(resume=on_approval(request))
            except StopAsking:
                break
        return agent.graph.get_state(agent.config(thread_id)).values
    except storage_errors() as exc:  # a full disk, a read-only file, a damaged page met mid-run
        raise explain(exc, file_of(exc, agent.settings.home), action="write",
                      resume=resume_command(thread_id, thread_model(agent, thread_id))) from None
    except AstraError:
        raise
    except Exception as exc:  # noqa: BLE001 - the abort rule: a bug of ours ends the session `error`
        raise session_error(agent, thread_id, exc) from exc


def failed_node(agent: Agent, thread_id: str) -> str | None:
    """The node whose exception stopped the thread at its last checkpoint (LangGraph keeps the
    error with the pending task), or None."""
    snapshot = agent.graph.get_state(agent.config(thread_id))
    return next((t.name for t in getattr(snapshot, "tasks", ()) or () if getattr(t, "error", None)), None)


def session_error(agent: Agent, thread_id: str, exc: BaseException) -> SessionError:
    """The unexpected exception in one line (no traceback), with where and how to go on."""
    try:
        node = failed_node(agent, thread_id)
    except Exception:  # noqa: BLE001 - the report must not fail on a second fault
        node = None
    what = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
    where = f" in {node}" if node else ""
    return SessionError(f"session {thread_id} stopped with status error{where} ({what}); its pending step is "
                        f"kept: remove the cause, then `{resume_command(thread_id, thread_model(agent, thread_id))}` "
                        "retries it",
                        thread_id=thread_id, node=node)


# -- cancelled sessions: a mark beside the session's run folder (one machine runs a session's workspace)
CANCEL_MARK = "cancelled.json"


def cancel_mark(settings: Settings, thread_id: str) -> Path:
    return settings.run_dir(thread_id) / CANCEL_MARK


def cancellation(settings: Settings, thread_id: str) -> dict[str, Any] | None:
    """When and how the thread was cancelled, or None."""
    try:
        return json.loads(cancel_mark(settings, thread_id).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {"at": "?", "how": "unreadable mark"}


def mark_cancelled(settings: Settings, thread_id: str, how: str) -> dict[str, Any]:
    """Write the mark (the caller holds the thread's lease, or its runner just stopped)."""
    mark = {"at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "how": how}
    path = cancel_mark(settings, thread_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(mark), encoding="utf-8")
    return mark


def cancel_session(agent: Agent, thread_id: str, how: str = "astra-memory cancel") -> dict[str, Any]:
    """Mark a thread cancelled (``astra-memory cancel ID``). Refused for an unknown thread, a finished
    one, and one another process is running (its lease)."""
    with claimed(agent, thread_id):
        _task_of(agent, thread_id)  # UnknownThreadError
        snapshot = thread_state(agent, thread_id)
        if finished(snapshot):
            raise AstraError(f"thread {thread_id} already finished ({snapshot.values.get('status')}); "
                             "nothing to cancel")
        return mark_cancelled(agent.settings, thread_id, how)


def delete_session(agent: Agent, thread_id: str) -> dict[str, Any]:
    """Delete a thread (``astra-memory threads delete ID``): its checkpoints and saved writes (the
    saver's own ``delete_thread``, SQLite or PostgreSQL), its registration and its cancel mark. Its
    checkpoint need not be readable: this is the way out for a thread listed ``unreadable``. Refused
    for an unknown thread and for one another process is running (its lease). The run folder (the
    events, the snapshot, a bundled scenario's workspace) stays on disk; the returned ``run_dir``
    names it. Memory is not touched: a fix the thread stored stays stored."""
    with claimed(agent, thread_id):
        saver = agent.graph.checkpointer
        checkpointed = thread_id in thread_ids(saver)
        registered = agent.threads is not None and any(t == thread_id for t, _ in agent.threads.registered_ids())
        if not checkpointed and not registered:
            raise UnknownThreadError(f"no session with thread id {thread_id!r}; `astra-memory threads` lists them")
        if checkpointed:
            saver.delete_thread(thread_id)
        if agent.threads is not None:
            agent.threads.forget(thread_id)
        cancel_mark(agent.settings, thread_id).unlink(missing_ok=True)
        run_dir = agent.settings.run_dir(thread_id)
        return {"thread_id": thread_id, "run_dir": str(run_dir) if run_dir.exists() else None}


def refuse_cancelled(agent: Agent, thread_id: str, *, uncancel: bool) -> None:
    mark = cancellation(agent.settings, thread_id)
    if mark is None:
        return
    if not uncancel:
        raise CancelledThreadError(
            f"thread {thread_id} was cancelled ({mark.get('how')}, {mark.get('at')}); "
            f"`{resume_command(thread_id, thread_model(agent, thread_id), '--uncancel')}` continues it anyway")
    cancel_mark(agent.settings, thread_id).unlink(missing_ok=True)


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
                  on_update: OnUpdate | None = None, on_approval: OnApproval | None = None,
                  on_start: OnStart | None = None) -> dict[str, Any]:
    """Run a new session to its end; returns the final state.

    The session's knobs (model, limits, live settings) are recorded in its task, so that a resume
    runs under the same ones.
    """
    thread_id = check_thread_id(task["session_id"])
    with claimed(agent, thread_id):
        refuse_known(agent, thread_id)
        context = _guarded(agent, context or Context(model=task.get("model")), task)
        # Stamped here as well as by prepare: a kill before prepare's checkpoint leaves this input as the
        # last checkpoint, and resume judges the thread's version from it (refuse_earlier_version).
        task = {**task, "knobs": recorded_knobs(replace(context, model=context.model or task.get("model"))),
                "state_version": STATE_VERSION,
                **scrub_data({k: task[k] for k in ("prompt", "project") if k in task})}  # free text is checkpointed
        if agent.threads is not None:
            agent.threads.register(thread_id, dict(task))  # from now on `resume` can start it
        crash_point("session:registered")
        return _drive(agent, {"task": task}, thread_id, context, on_update, on_approval, on_start)


def thread_state(agent: Agent, thread_id: str):
    """The thread's last checkpoint, or None while it holds no task (not started: a kill just after
    `run` registered it can leave a checkpoint without one; resume starts it from the registered task)."""
    snapshot = agent.graph.get_state(agent.config(check_thread_id(thread_id)))
    return snapshot if (snapshot.values or {}).get("task") else None


def finished(snapshot) -> bool:
    """Whether a thread's last checkpoint has nothing left to run: the one rule for "done".

    LangGraph's ``next`` leaves out a task whose writes were saved when the checkpoint after them
    was not (a kill in that window); ``tasks`` still holds it, and ``invoke(None)`` applies its
    writes and goes on. So a task with saved writes is unfinished work, never the end."""
    return snapshot is not None and not snapshot.next and not snapshot.tasks


def registered_task(agent: Agent, thread_id: str) -> Task | None:
    """The task `run` registered for a thread (None if it was never accepted, or on a bare graph)."""
    return agent.threads.registered(thread_id) if agent.threads is not None else None


def _task_of(agent: Agent, thread_id: str) -> Task:
    snapshot = thread_state(agent, thread_id)
    task = snapshot.values["task"] if snapshot is not None else registered_task(agent, thread_id)
    if task is None:
        raise UnknownThreadError(f"no session with thread id {thread_id!r}; `astra-memory threads` lists them")
    return task


def thread_model(agent: Agent, thread_id: str) -> str | None:
    """The model a thread was started with (None if it cannot be read: a hint must not fail)."""
    try:
        return recorded_of(_task_of(agent, thread_id)).get("model")
    except Exception:  # noqa: BLE001 - only for the words of a hint
        return None


def recorded_of(task: Task) -> dict[str, Any]:
    """The knobs a session recorded (sessions from before ``knobs`` recorded only the live ones)."""
    if "knobs" in task:
        return dict(task["knobs"])
    return {"model": task.get("model"), **(task.get("live") or {})}


def resumed_context(agent: Agent, thread_id: str, given: Mapping[str, Any] | None = None,
                    base: Context | None = None) -> Context:
    """The context a resumed thread runs under: options ``given`` again win over what it recorded."""
    return session_context(recorded_of(_task_of(agent, thread_id)), given, base)


def refuse_client_session(agent: Agent, thread_id: str, task: Task) -> None:
    """A fix session of an MCP client (``editor``: client) is continued by that client's ``finish_fix``
    (astra_memory/mcp_server/fix_sessions.py), on the graph that stops before each model turn: resumed on
    another, the model's turn would find no turn of the caller to play."""
    if task.get("editor") == "client" and "investigate" not in (getattr(agent.graph, "interrupt_before_nodes", None)
                                                                 or ()):
        raise AstraError(f"thread {thread_id} is a fix session of an MCP client (astra-memory mcp): the calling "
                         "agent continues it with finish_fix")


def resume_session(agent: Agent, thread_id: str, *, context: Context | None = None,
                   on_update: OnUpdate | None = None, on_approval: OnApproval | None = None,
                   uncancel: bool = False, on_start: OnStart | None = None) -> tuple[dict[str, Any], bool]:
    """Continue a thread from its last checkpoint. Returns (final state, whether anything ran).

    Without a ``context`` the thread runs under the knobs it recorded (``resumed_context``). A
    thread `run` accepted but that was killed before its first checkpoint starts from the
    beginning with the task it registered. The thread's lease is held while it runs. A thread
    waiting at an approval asks ``on_approval`` again (nothing was applied while it waited).
    A cancelled thread raises ``CancelledThreadError`` unless ``uncancel`` (which removes the mark).
    A thread that stopped with status ``error`` re-runs the step that failed.
    """
    with claimed(agent, thread_id):
        snapshot = thread_state(agent, thread_id)
        task = _task_of(agent, thread_id)
        if finished(snapshot):
            return snapshot.values, False
        refuse_cancelled(agent, thread_id, uncancel=uncancel)
        refuse_earlier_version(agent, thread_id)
        refuse_client_session(agent, thread_id, task)
        context = _guarded(agent, context or resumed_context(agent, thread_id), task)
        payload = None if snapshot is not None else {"task": task}
        return _drive(agent, payload, thread_id, context, on_update, on_approval, on_start), True


def list_threads(agent: Agent) -> list[dict[str, Any]]:
    """Every thread with a checkpoint, then those `run` accepted that have none yet ("not started").
    A thread whose last checkpoint cannot be read is listed ``unreadable``, with the reason in ``damaged``."""
    saver = agent.graph.checkpointer
    rows = []
    listed = thread_ids(saver)
    for tid in listed:
        try:
            snapshot = agent.graph.get_state(agent.config(tid))
        except DamagedCheckpointError as exc:  # that thread alone: listed as such, the others as usual
            try:
                task = registered_task(agent, tid) or {}
            except ValueError:  # its registration is not JSON either: the row names the thread alone
                task = {}
            rows.append({"thread_id": tid, "status": "unreadable", "last_node": None, "next": [],
                         "scenario": task.get("scenario"), "project": task.get("project"), "updated": None,
                         "damaged": str(exc)})
            continue
        values = snapshot.values or {}
        task = values.get("task") or values.get("job") or {}  # a learn's thread keeps its job (astra_memory/learn/)
        rows.append({
            "thread_id": tid,
            "status": values.get("status") or (
                "cancelled" if cancellation(agent.settings, tid) is not None
                else "error" if any(getattr(t, "error", None) for t in snapshot.tasks or ())
                else "waiting_for_approval" if pending_approval(agent, tid)
                else "interrupted" if not finished(snapshot) else "unknown"),
            "last_node": values.get("last_node"),
            "next": list(snapshot.next) or [t.name for t in snapshot.tasks or ()],
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

"""Small helpers shared by the nodes: the memory service, the workspace, tool replies, refusals."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.config import get_config
from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.errors import ConfigurationError
from astra_memory.events import emit
from astra_memory.redact import scrub
from astra_memory.rules.gates import last_ai_message
from astra_memory.rules.limits import LimitHit, check_limits, reply_limit
from astra_memory.settings import Settings
from astra_memory.state import AgentState
from astra_memory.stores.memory import FixMemory
from astra_memory.stores.namespaces import namespace_for
from astra_memory.workspace.files import Workspace
from astra_memory.workspace.protected import protected_paths

MEMORY_STORE_KEY = "__astra_memory_store"  # configurable: a callable returning the store (graph/studio.py)
COST_LEDGER_KEY = "__astra_cost_ledger"  # configurable: a callable returning the cost ledger (graph/studio.py)


def configured(key: str):
    """What the run's config carries under ``key`` (an opener the graph Studio serves puts there), or None."""
    try:
        return (get_config().get("configurable") or {}).get(key)
    except RuntimeError:  # called outside a graph run
        return None


def context_of(runtime: Runtime[Context]) -> Context:
    """The run's context; its cost ledger, when the caller gave none, from the run's config
    (``COST_LEDGER_KEY``: the graph Studio serves opens the CLI's ledger this way)."""
    context = runtime.context or Context()
    if context.ledger is None and (opener := configured(COST_LEDGER_KEY)) is not None:
        context = replace(context, ledger=opener())
    return context


def fix_memory(runtime: Runtime[Context]) -> FixMemory:
    """The fix memory on the run's store: the one the graph was compiled with, unless the run's config
    names another (``MEMORY_STORE_KEY``: the graph Studio serves opens the CLI's memory this way,
    so the server's own store, which ``langgraph dev`` always passes, is not used)."""
    opener = configured(MEMORY_STORE_KEY)
    store = opener() if opener is not None else runtime.store
    if store is None:
        raise ConfigurationError("the graph was compiled without a store: use builder.compile(store=...)")
    context = context_of(runtime)
    return FixMemory(store, min_score=context.min_score, namespace=namespace_for(context.namespace),
                     floor=context.min_fused_score)


def private_step(task: dict, *, confirming: bool = False) -> dict:
    """How every run of the project's tests in a session is made (``run_tests`` keywords): in a private
    root (testrun/private_root.py), where what the step writes outside its project folder does not
    survive it, with our data home (the session's snapshot, memory and checkpoints), the user's home
    and the runs folder empty. Observe, test and replay (the workspace) and observe's second
    collection run so, and the confirming runs (``confirming``) also find the session's workspace
    empty: so the confirming run sees only the snapshot plus the session's diff, since no earlier
    run of the session could leave anything behind it reads (issue 32, invariant a)."""
    folders = [str(Settings().home), str(Path.home())]
    if task.get("run_dir"):
        folders.append(str(Path(task["run_dir"]).parent))
    if confirming:
        folders.insert(0, task["workspace"])
    return {"private": True, "hide": folders}


def workspace_of(state: AgentState) -> Workspace:
    task = state["task"]
    return Workspace(task["workspace"], protected=protected_paths(task, state))


def current_calls(state: AgentState) -> tuple[AIMessage | None, list[dict]]:
    message = last_ai_message(state)
    return message, (list(message.tool_calls) if message is not None else [])


def call_key(position: int, index: int, call: dict) -> str:
    """A tool call's identity in this session (its edit journal, a human's approval of it): where it sits in
    the thread (``position``: its message's index in ``state["messages"]``; ``index``: its place in that
    message's calls) and a hash of its name and arguments. Never the call's ``id``: the server chooses
    that, and one that gives every call the same id (a fixed ``call_0``) must not make a second edit look
    like the first, already applied. A resume re-reads the same checkpointed message: the same key."""
    what = json.dumps([call.get("name"), call.get("args")], sort_keys=True, default=str, ensure_ascii=True)
    return f"m{position}-c{index}-{hashlib.sha256(what.encode()).hexdigest()[:16]}"


def current_call_key(state: AgentState, call: dict) -> str:
    """The key (``call_key``) of ``call``, the first call of the latest model turn (or a reviewer's edited
    call, which replaces the model's in the same message)."""
    messages = state.get("messages") or []
    position = next((i for i in range(len(messages) - 1, -1, -1) if isinstance(messages[i], AIMessage)), -1)
    return call_key(position, 0, call)


def thread_calls(state: AgentState) -> dict[str, dict]:
    """Every tool call of the thread by its key (``call_key``)."""
    return {call_key(position, index, call): call for position, message in enumerate(state.get("messages") or [])
            if isinstance(message, AIMessage) for index, call in enumerate(message.tool_calls)}


def reply(call: dict, content: str, *, error: bool = False) -> ToolMessage:
    """A tool observation, scrubbed: it is checkpointed and sent to the model (file contents, paths, diffs)."""
    return ToolMessage(content=scrub(content), tool_call_id=call["id"], name=call.get("name") or "unknown",
                       status="error" if error else "success")


def refuse_rest(calls: list[dict]) -> list[ToolMessage]:
    """Every tool call must get an answer; only the first of a turn is executed."""
    return [reply(c, "refused: one tool call per turn; only the first call of this turn was handled", error=True)
            for c in calls[1:]]


def refuse_turn(state: AgentState, context: Context, update: dict, messages: list[BaseMessage], reason: str) -> dict:
    """Answer a turn that must not run and count it; the refused-turn limit may end the run."""
    invalid = state.get("invalid_turns", 0) + 1
    update.update(invalid_turns=invalid, messages=messages)
    emit(state["task"].get("run_dir"), "refused_turn", reason=reason, invalid_turns=invalid)
    hit = check_limits({**state, "invalid_turns": invalid}, context, "invalid_turns", detail=f"last: {reason}")
    if hit is not None:
        update.update(hit.update())
    return update


def refuse_call(state: AgentState, context: Context, update: dict, call: dict, calls: list[dict],
                exc: Exception) -> dict:
    """Answer a call that must not run with an error observation, and count the refusal."""
    return refuse_turn(state, context, update, [reply(call, f"refused: {exc}", error=True), *refuse_rest(calls)],
                       str(exc))


def stop_at_limit(state: AgentState, hit: LimitHit, calls: list[dict]) -> dict:
    """End the run at a limit; every pending call is answered with the reason."""
    emit(state["task"].get("run_dir"), "limit", limit=hit.limit, reason=hit.reason)
    return {**hit.update(),
            "messages": [reply(c, "refused: " + hit.reason, error=True) for c in calls]}


def tool_step(state: AgentState, runtime: Runtime[Context]) -> tuple[Context, dict, list[dict], dict | None]:
    """What a node that runs the model's tool call starts with: its run knobs, the task, the pending
    calls (the first is the one it runs), and the update that ends the run when the tool-call limit
    is spent (``None`` while it is not)."""
    context, task = context_of(runtime), state["task"]
    _, calls = current_calls(state)
    hit = reply_limit(state, context)
    return context, task, calls, (stop_at_limit(state, hit, calls) if hit is not None else None)


"""Small helpers shared by the nodes: the memory service, tool replies, gate checks."""

from __future__ import annotations

from langchain_core.messages import AIMessage, ToolMessage
from langgraph.runtime import Runtime

from astra_memory.errors import ConfigurationError, MemoryGateError
from astra_memory.graph.context import Context
from astra_memory.graph.routing import last_ai_message, memory_delivered
from astra_memory.graph.state import AgentState
from astra_memory.stores.memory import FixMemory
from astra_memory.workspace import Workspace


def fix_memory(runtime: Runtime[Context]) -> FixMemory:
    if runtime.store is None:
        raise ConfigurationError("the graph was compiled without a store: use builder.compile(store=...)")
    context = runtime.context or Context()
    return FixMemory(runtime.store, min_score=context.min_score)


def context_of(runtime: Runtime[Context]) -> Context:
    return runtime.context or Context()


def workspace_of(state: AgentState) -> Workspace:
    task = state["task"]
    return Workspace(task["workspace"], protected=tuple(task.get("protected") or ("tests",)))


def require_memory(state: AgentState, action: str) -> None:
    """Defence in depth for the memory gate: the edges already make this unreachable."""
    if not memory_delivered(state):
        raise MemoryGateError(f"{action} refused: the memory search result has not been delivered yet")


def current_calls(state: AgentState) -> tuple[AIMessage | None, list[dict]]:
    message = last_ai_message(state)
    return message, (list(message.tool_calls) if message is not None else [])


def reply(call: dict, content: str, *, error: bool = False) -> ToolMessage:
    return ToolMessage(content=content, tool_call_id=call["id"], name=call.get("name") or "unknown",
                       status="error" if error else "success")


def count_refusal(state: AgentState, context, update: dict, reason: str) -> dict:
    """Count a refused turn; after ``max_invalid_turns`` of them the run ends ``failed``."""
    invalid = state.get("invalid_turns", 0) + 1
    update["invalid_turns"] = invalid
    if invalid >= context.max_invalid_turns:
        update.update(status="failed", reason=f"{invalid} refused tool calls; last: {reason}")
    return update


def refuse_call(state: AgentState, context, update: dict, call: dict, calls: list[dict], exc: Exception) -> dict:
    """Answer a call that must not run with an error observation, and count the refusal."""
    update["messages"] = [reply(call, f"refused: {exc}", error=True), *refuse_rest(calls)]
    return count_refusal(state, context, update, str(exc))


def refuse_rest(calls: list[dict]) -> list[ToolMessage]:
    """Every tool call must get an answer; only the first of a turn is executed."""
    return [reply(c, "refused: one tool call per turn; only the first call of this turn was handled", error=True)
            for c in calls[1:]]

"""tools: run the model's read-only tool calls, or refuse calls that must not run."""

from __future__ import annotations

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from astra_memory.errors import AstraError
from astra_memory.events import emit
from astra_memory.graph.context import Context
from astra_memory.graph.state import AgentState
from astra_memory.nodes.common import (
    context_of,
    count_refusal,
    current_calls,
    fix_memory,
    refuse_rest,
    reply,
    workspace_of,
)
from astra_memory.stores.format import format_hits
from astra_memory.tools.schemas import READ_ONLY_TOOLS, ToolCallError, validate_call


def run_read_only(name: str, args, state: AgentState, runtime: Runtime[Context]) -> str:
    workspace = workspace_of(state)
    if name == "list_files":
        return "\n".join(workspace.list_files(args.path or ".")) or "(no files)"
    if name == "read_file":
        return workspace.read_file(args.path)
    if name == "search_code":
        return "\n".join(workspace.search_code(args.pattern)) or "(no matches)"
    if name == "search_codebase_memory":
        hits = fix_memory(runtime).search_codebase_memory(args.query, error_type=args.error_type, top_k=args.top_k)
        return format_hits(hits)
    raise ToolCallError(f"{name} is not a read-only tool")


def tools(state: AgentState, runtime: Runtime[Context]) -> dict:
    context, task = context_of(runtime), state["task"]
    message, calls = current_calls(state)
    update: dict = {"last_node": "tools"}
    broken = list(getattr(message, "invalid_tool_calls", None) or [])
    if not calls and broken:  # arguments that were not JSON: answer each call id, execute none
        invalid = state.get("invalid_turns", 0) + 1
        update.update(invalid_turns=invalid, budget={"tool_calls": len(broken)}, messages=[
            reply({"id": b.get("id") or "invalid", "name": b.get("name")},
                  f"refused: {b.get('name')} was not executed: {b.get('error') or 'arguments are not valid JSON'}",
                  error=True) for b in broken])
        emit(task.get("run_dir"), "refused_turn", reason="arguments not JSON", invalid_turns=invalid)
        if invalid >= context.max_invalid_turns:
            update.update(status="failed", reason=f"{invalid} model turns with malformed tool calls")
        return update
    if not calls:
        invalid = state.get("invalid_turns", 0) + 1
        update.update(invalid_turns=invalid, messages=[HumanMessage(
            content="Your reply had no tool call. Reply with exactly one tool call (finish when done).")])
        emit(task.get("run_dir"), "refused_turn", reason="no tool call", invalid_turns=invalid)
        if invalid >= context.max_invalid_turns:
            update.update(status="failed", reason=f"{invalid} model turns without a valid tool call")
        return update
    if (state.get("budget") or {}).get("tool_calls", 0) >= context.max_tool_calls:
        reason = f"tool call limit reached ({context.max_tool_calls}); raise max_tool_calls to allow more"
        return {**update, "status": "budget_exhausted", "reason": reason,
                "messages": [reply(c, "refused: " + reason, error=True) for c in calls]}
    call = calls[0]
    try:
        args = validate_call(call["name"], call.get("args"))
        if call["name"] not in READ_ONLY_TOOLS:
            raise ToolCallError(f"{call['name']} must be the first call of its turn")
        content, error = run_read_only(call["name"], args, state, runtime), False
    except ToolCallError as exc:
        content, error = f"refused: {exc}", True
        count_refusal(state, context, update, str(exc))
    except AstraError as exc:  # a well-formed call that failed: an observation, not a crash
        content, error = f"error: {exc}", True
    emit(task.get("run_dir"), "tool", name=call["name"], error=error, chars=len(content))
    update["messages"] = [reply(call, content, error=error), *refuse_rest(calls)]
    update["budget"] = {"tool_calls": 1}
    return update

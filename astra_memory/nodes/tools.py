"""tools: run the model's read-only tool call through the registry, or refuse a turn that must not run
(among them an edit before the diagnosis search: the router sends it here, and the answer tells the
model to state its diagnosis first)."""

from __future__ import annotations

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.events import emit
from astra_memory.models.untrusted import quoted
from astra_memory.nodes.common import (
    context_of,
    current_calls,
    fix_memory,
    refuse_call,
    refuse_rest,
    refuse_turn,
    reply,
    stop_at_limit,
    workspace_of,
)
from astra_memory.rules.gates import diagnosis_delivered
from astra_memory.rules.limits import reply_limit
from astra_memory.state import AgentState
from astra_memory.tools.guard import MAX_RESULT_CHARS, bound_text, call_guarded
from astra_memory.tools.registry import (
    TOOLS,
    ToolCallError,
    ToolEnv,
    ToolKind,
    tool_names,
    validate_call,
)


def diagnosis_first(name: str) -> str:
    """The refusal of an edit before the diagnosis search: what to do instead."""
    diagnose = " / ".join(tool_names(ToolKind.DIAGNOSIS))
    return (f"{name} was not applied: state your diagnosis first with {diagnose}(error_type, cause, files) "
            "(the error type, the root cause in one sentence, the files you will change). Memory is searched "
            "with it and the result returned to you; edits are accepted after that.")


def observation(tool, result: str) -> str:
    """A read tool's result as the model sees it: workspace text (file contents, names, matches) is
    outside text, quoted as one value; memory results are quoted field by field already."""
    if not tool.quotes_result:
        return bound_text(result)
    return f"{tool.name} returned (workspace DATA, quoted): {quoted(result, MAX_RESULT_CHARS)}"


def tools(state: AgentState, runtime: Runtime[Context]) -> dict:
    context, task = context_of(runtime), state["task"]
    message, calls = current_calls(state)
    update: dict = {}
    broken = list(getattr(message, "invalid_tool_calls", None) or [])
    if not calls and broken:  # arguments that were not JSON: answer each call id, execute none
        return refuse_turn(state, context, update, [
            reply({"id": b.get("id") or "invalid", "name": b.get("name")},
                  f"refused: {b.get('name')} was not executed: {b.get('error') or 'arguments are not valid JSON'}",
                  error=True) for b in broken], "malformed tool call arguments")
    if not calls:
        return refuse_turn(state, context, update, [HumanMessage(
            content="Your reply had no tool call. Reply with exactly one tool call (finish when done).")],
            "no tool call")
    hit = reply_limit(state, context)  # the reply's calls were counted when it arrived (nodes/investigate.py)
    if hit is not None:
        return stop_at_limit(state, hit, calls)
    call = calls[0]
    try:
        args = validate_call(call["name"], call.get("args"))
        tool = TOOLS[call["name"]]
        if tool.kind is ToolKind.EDIT and not diagnosis_delivered(state):
            raise ToolCallError(diagnosis_first(call["name"]))
        if tool.kind is not ToolKind.READ:
            raise ToolCallError(f"{call['name']} must be the first call of its turn")
    except ToolCallError as exc:
        return refuse_call(state, context, update, call, calls, exc)
    env = ToolEnv(workspace_of(state), lambda: fix_memory(runtime), project_id=task.get("project_id") or None)
    result, problem = call_guarded(lambda: tool.handler(args, env))  # a failed call is an observation
    content, error = (observation(tool, result), False) if problem is None else (problem, True)
    emit(task.get("run_dir"), "tool", name=call["name"], error=error, chars=len(content))
    update["messages"] = [reply(call, content, error=error), *refuse_rest(calls)]
    return update

"""investigate: one model turn. The model sees the failure, the memory results and the tools."""

from __future__ import annotations

from langchain_core.messages import SystemMessage
from langgraph.runtime import Runtime

from astra_memory.events import emit
from astra_memory.graph.context import Context
from astra_memory.graph.prompts import SYSTEM_PROMPT
from astra_memory.graph.state import AgentState
from astra_memory.models.factory import chat_model_for
from astra_memory.nodes.common import context_of, require_memory


def investigate(state: AgentState, runtime: Runtime[Context]) -> dict:
    require_memory(state, "diagnosis")
    context, task = context_of(runtime), state["task"]
    budget = state.get("budget") or {}
    if budget.get("model_requests", 0) >= context.max_model_requests:
        reason = f"model request limit reached ({context.max_model_requests}); raise max_model_requests to allow more"
        emit(task.get("run_dir"), "budget_exhausted", reason=reason)
        return {"status": "budget_exhausted", "reason": reason, "last_node": "investigate"}
    model = chat_model_for(task, context)
    reply = model.invoke([SystemMessage(content=SYSTEM_PROMPT), *state["messages"]])
    usage = getattr(reply, "usage_metadata", None) or {}
    spent = {"model_requests": 1, "input_tokens": usage.get("input_tokens", 0),
             "output_tokens": usage.get("output_tokens", 0)}
    emit(task.get("run_dir"), "model_turn", model=task.get("model", "scripted"),
         tool_calls=[{"name": c["name"], "args": c["args"]} for c in reply.tool_calls], usage=usage)
    return {"messages": [reply], "budget": spent, "last_node": "investigate"}

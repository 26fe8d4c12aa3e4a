"""investigate: one model turn. The model sees the failure, the memory results and the tools.

A scripted turn is free and counted here. A live turn goes through the cost guard
(``models/live.live_turn``): reserved in the durable ledger before it is sent, settled after; the
state's budget counters are then raised to the ledger's counts for this thread, so a request lost
in a crash (reserved, maybe billed, never checkpointed) is still counted after ``resume``.

Every reply is bounded (``models/untrusted.bound_reply``) before it is checkpointed, and every
tool call the server sent in it, kept, invalid or dropped, is counted here against the tool-call
limit; the nodes that answer the calls count none (rules/limits.py ``reply_limit``). A run whose
tool calls reached the limit ends here, before another request is paid for.
"""

from __future__ import annotations

import uuid

from langchain_core.messages import AIMessage, SystemMessage
from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.costs.ledger import BudgetExceededError
from astra_memory.events import emit
from astra_memory.models.factory import chat_model_for, missing_model, model_name
from astra_memory.models.live import LiveRequestError, is_live, live_turn
from astra_memory.models.prompts import system_prompt
from astra_memory.models.untrusted import DROPPED_KEY, bound_reply, calls_in_reply, preview_calls
from astra_memory.nodes.common import context_of
from astra_memory.rules.gates import require_memory
from astra_memory.rules.limits import check_limits, spend_hit
from astra_memory.state import AgentState, add_counts

LEDGER_COUNTERS = {"model_requests": "requests", "input_tokens": "input_tokens", "output_tokens": "output_tokens",
                   "cost_usd": "spent_usd"}


def ledger_catch_up(budget: dict, ledger, thread_id: str) -> dict:
    """The budget delta that makes state's counters at least the ledger's (they only grow)."""
    usage = ledger.session(thread_id)
    delta = {}
    for key, attr in LEDGER_COUNTERS.items():
        gap = getattr(usage, attr) - budget.get(key, 0)
        if gap > 0:
            delta[key] = gap
    return delta


def spent(state: AgentState, delta: dict, limit_usd: float | None = None) -> dict:
    """The model turn's update to the budget (``delta``) and the totals so far (``spend``)."""
    total = add_counts(state.get("budget"), delta)
    spend = {key: total.get(key, 0) for key in LEDGER_COUNTERS}
    if limit_usd is not None:
        spend["session_budget_usd"] = limit_usd
    return {"budget": delta, "spend": spend}


def bounded(reply, context: Context, task) -> AIMessage:
    """``reply`` within the bounds of models/untrusted.py; dropped calls are said in the event log."""
    reply = bound_reply(reply, context.max_tool_calls_per_reply)
    if dropped := (reply.response_metadata or {}).get(DROPPED_KEY):
        emit(task.get("run_dir"), "tool_calls_dropped", dropped=dropped, kept=len(reply.tool_calls),
             invalid=len(reply.invalid_tool_calls), limit=context.max_tool_calls_per_reply,
             note="calls beyond the per-reply bound are not kept; every call is counted against max_tool_calls")
    return reply


def own_id(reply: AIMessage, state: AgentState) -> AIMessage:
    """``reply`` with an id no message of the thread has. Its id is the server's (on the Responses API, the
    response id): one that repeats an earlier message's would replace that message in the thread
    (``add_messages`` matches by id), its calls and their answers no longer in order."""
    if reply.id is None or reply.id not in {m.id for m in state.get("messages") or []}:
        return reply
    return reply.model_copy(update={"id": f"reply-{uuid.uuid4().hex}"})


def investigate(state: AgentState, runtime: Runtime[Context]) -> dict:
    require_memory(state, "a model turn")
    context, task = context_of(runtime), state["task"]
    name = model_name(task, context)
    # A live request the ledger reserved and no checkpoint saw (the process was killed while the
    # server held it) counts before the next one is sent: caught up only after a reply, each kill
    # in flight was one request past the limit (outside round 9 case 05).
    lost = (ledger_catch_up(state.get("budget") or {}, context.ledger, _thread(task))
            if is_live(name) and context.ledger is not None else {})  # no ledger: live_turn refuses below
    seen = {**state, "budget": add_counts(state.get("budget"), lost)}
    hit = check_limits(seen, context, "model_requests", "tool_calls", *(("cost_usd",) if is_live(name) else ()))
    if hit is not None:
        emit(task.get("run_dir"), "limit", limit=hit.limit, reason=hit.reason)
        return {**hit.update(), **(spent(state, lost, context.session_budget_usd) if lost else {})}
    if (no_model := missing_model(task, context)) is not None:
        # A named end, not an exception: the thread finishes (not `interrupted`) and says what to pass.
        emit(task.get("run_dir"), "needs_model", reason=no_model)
        return {"status": "needs_model", "reason": no_model}
    messages = [SystemMessage(content=system_prompt()), *state["messages"]]
    if not is_live(name):
        reply = own_id(bounded(chat_model_for(task, context).invoke(messages), context, task), state)
        usage = getattr(reply, "usage_metadata", None) or {}
        counted = {"model_requests": 1, "input_tokens": usage.get("input_tokens", 0),
                   "output_tokens": usage.get("output_tokens", 0), "tool_calls": calls_in_reply(reply)}
        emit(task.get("run_dir"), "model_turn", model=name, tool_calls=preview_calls(reply.tool_calls), usage=usage)
        return {"messages": [reply], **spent(state, counted)}
    return _live_investigate(state, context, name, messages)


def _thread(task) -> str:
    return task.get("session_id") or "unknown-thread"


def _live_investigate(state: AgentState, context: Context, name: str, messages: list) -> dict:
    task, budget = state["task"], state.get("budget") or {}
    thread_id = _thread(task)

    def caught_up() -> dict:  # the ledger's counts for this thread, and the totals so far
        return spent(state, ledger_catch_up(budget, context.ledger, thread_id), context.session_budget_usd)

    try:
        live = live_turn(name, context, messages, thread_id=thread_id, run_dir=task.get("run_dir"))
    except BudgetExceededError as exc:
        hit = spend_hit(str(exc))
        emit(task.get("run_dir"), "limit", limit=hit.limit, reason=hit.reason)
        return {**hit.update(), **caught_up()}
    except LiveRequestError as exc:
        emit(task.get("run_dir"), "model_error", model=name, error=str(exc), status_code=exc.status_code)
        return {"status": "failed", "reason": str(exc), **caught_up()}
    reply = own_id(bounded(live.message, context, task), state)
    emit(task.get("run_dir"), "model_turn", model=name, request_id=live.request_id,
         tool_calls=preview_calls(reply.tool_calls),
         invalid_tool_calls=[c.get("name") for c in reply.invalid_tool_calls], usage=live.usage,
         cost_usd=live.cost_usd)
    counted = caught_up()
    counted["budget"] = {**counted["budget"], "tool_calls": calls_in_reply(reply)}
    return {"messages": [reply], **counted}

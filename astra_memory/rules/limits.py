"""Every limit of a session, checked in one place.

A node that is about to spend (a model request, a tool call) or has just counted something that
is limited (a refused turn, a test attempt) calls ``check_limits`` with the limits that apply. The
answer names the limit, the count, and the setting that raises it; ``LimitHit.update()`` is the
state update that ends the run with the limit's status. Spend is also checked by the cost
ledger, at its worst case, when a live request is reserved (costs/ledger.py); that refusal is
reported through ``spend_hit`` in the same words.

Tool calls are counted when the reply that carries them arrives (nodes/investigate.py), every call
the server sent, kept or not (models/untrusted.py ``calls_in_reply``). A node answering the latest
reply asks ``reply_limit``: its first call runs while the replies before it stayed under the limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from astra_memory.context import Context, setting_name
from astra_memory.models.untrusted import calls_in_reply
from astra_memory.rules.gates import last_ai_message
from astra_memory.state import AgentState, Status

LimitName = Literal["model_requests", "tool_calls", "cost_usd", "invalid_turns", "attempts"]


@dataclass(frozen=True)
class Limit:
    what: str  # in words, for the reason
    setting: str  # the Context knob that sets it
    status: Status  # how a run that reaches it ends
    in_budget: bool  # counted in state["budget"] (else a top-level counter of state)


LIMITS: dict[str, Limit] = {
    "model_requests": Limit("model request limit", "max_model_requests", "budget_exhausted", True),
    "tool_calls": Limit("tool call limit", "max_tool_calls", "budget_exhausted", True),
    "cost_usd": Limit("session spend limit (USD)", "session_budget_usd", "budget_exhausted", True),
    "invalid_turns": Limit("refused tool-call turns", "max_invalid_turns", "failed", False),
    "attempts": Limit("test attempts", "max_attempts", "failed", False),
}


@dataclass(frozen=True)
class LimitHit:
    limit: str
    count: float
    allowed: float
    status: Status
    reason: str

    def update(self) -> dict:
        return {"status": self.status, "reason": self.reason}


def count_of(state: AgentState, name: str) -> float:
    if LIMITS[name].in_budget:
        return (state.get("budget") or {}).get(name, 0)
    return state.get(name, 0) or 0


def check_limits(state: AgentState, context: Context, *names: LimitName, detail: str = "") -> LimitHit | None:
    """The first of ``names`` whose count has reached its limit, or None.

    Spend is limited only for live models: a scripted session costs nothing.
    """
    for name in names:
        limit = LIMITS[name]
        allowed = getattr(context, limit.setting)
        count = count_of(state, name)
        if count >= allowed:
            shown = f"{count:.4f} of {allowed:.4f}" if name == "cost_usd" else f"{count:g} of {allowed:g}"
            reason = f"{limit.what} reached ({shown}){': ' + detail if detail else ''}; raise {setting_name(limit.setting)} to allow more"
            return LimitHit(name, count, allowed, limit.status, reason)
    return None


def reply_limit(state: AgentState, context: Context) -> LimitHit | None:
    """The tool-call limit for the latest reply's calls: reached when the calls of the replies before
    it reached it (the reply's own were counted when it arrived)."""
    budget = dict(state.get("budget") or {})
    budget["tool_calls"] = budget.get("tool_calls", 0) - calls_in_reply(last_ai_message(state))
    return check_limits({**state, "budget": budget}, context, "tool_calls")


def spend_hit(message: str) -> LimitHit:
    """The cost ledger refused a live request (its worst case would pass a spend limit)."""
    return LimitHit("cost_usd", 0, 0, LIMITS["cost_usd"].status, message)

"""report: name how the run ended and write the session's evidence."""

from __future__ import annotations

import json
from pathlib import Path

from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.events import emit
from astra_memory.models.advice import live_rerun_words
from astra_memory.redact import scrub_data
from astra_memory.state import AgentState


def summarize(state: AgentState) -> dict:
    """The session in one JSON-able dict (also what the CLI prints), scrubbed of secrets."""
    task, budget = state.get("task") or {}, state.get("budget") or {}
    return scrub_data({
        "thread_id": task.get("session_id"),
        "scenario": task.get("scenario"),
        "project": task.get("project"),
        "project_id": task.get("project_id"),  # who the project is (workspace/identity.py)
        "model": task.get("model", "scripted"),
        "status": state.get("status"),
        "reason": state.get("reason"),
        # the advice's command, word by word, for the terminal to print whole (cli/app.py)
        "next_command": live_rerun_words(task) if state.get("status") == "needs_model" else None,
        "memory_query": (state.get("memory") or {}).get("query"),
        "memory_hits": (state.get("memory") or {}).get("hits", []),
        # Failed attempts, apart from the fixes and labelled (stores/attempts.py): shown beside the hits,
        # recorded by this session, and edits refused as exact repetitions of one.
        "memory_attempts": (state.get("memory") or {}).get("attempts", []),
        "attempts_recorded": list(dict.fromkeys(state.get("attempt_records") or [])),
        "repeats_refused": state.get("repeats_refused") or [],
        "edits": [{"path": e["path"], "before_sha256": e["before_sha256"], "after_sha256": e["after_sha256"]}
                  for e in state.get("edits") or []],
        "diff": "".join(e["diff"] for e in state.get("edits") or []),
        "left_diff": _left_diff(state),  # your project, a session that did not fix it: before -> now
        "passed_outcome": state.get("passed_outcome"),
        "confirm": {k: v for k, v in (state.get("confirm") or {}).items() if k != "output_tail"} or None,
        "stored_memory_id": state.get("stored_memory_id"),
        "replayed_memory_id": (state.get("replay") or {}).get("replayed"),
        "replay_tried": (state.get("replay") or {}).get("tried", []),
        "replay_skipped": (state.get("replay") or {}).get("passed_over", []),  # hits not tried, and why
        "model_requests": int(budget.get("model_requests", 0)),
        "tool_calls": int(budget.get("tool_calls", 0)),
        "test_runs": int(budget.get("test_runs", 0)),
        # Wall time inside the project's test subprocesses: every run in the workspace and the fresh copy's.
        "test_seconds": round(sum(float(r.get("duration_s", 0.0)) for r in state.get("test_runs") or [])
                              + float((state.get("confirm") or {}).get("duration_s", 0.0)), 3),
        "input_tokens": int(budget.get("input_tokens", 0)),
        "output_tokens": int(budget.get("output_tokens", 0)),
        "cost_usd": round(float(budget.get("cost_usd", 0.0)), 6),
        "open_requests": int((state.get("spend") or {}).get("open_requests", 0)),
        "open_usd": round(float((state.get("spend") or {}).get("open_usd", 0.0)), 6),
    })


# Statuses that end without a confirmed fix and may leave their edits in a --workspace project.
LEAVES_EDITS = ("failed", "budget_exhausted", "unconfirmed", "cannot_run", "needs_model")


def _left_diff(state: AgentState) -> str | None:
    """For a --workspace session that ended without a fix: what it leaves, each edited file from the
    snapshot to now (workspace/undo.py); None for a scenario, a fix, or no edit."""
    task, edits = state.get("task") or {}, state.get("edits") or []
    if task.get("scenario") or not edits or state.get("status") not in LEAVES_EDITS or not state.get("pristine"):
        return None
    from astra_memory.nodes.common import workspace_of
    from astra_memory.workspace.undo import left_diff

    return left_diff(workspace_of(state), Path(state["pristine"]), [e["path"] for e in edits])


def report(state: AgentState, runtime: Runtime[Context]) -> dict:
    status = state.get("status") or ("fixed" if state.get("stored_memory_id") else "failed")
    reason = state.get("reason") or ("" if status == "fixed" else "the run ended without a confirmed fix")
    update = {"status": status, "reason": reason, **_open_spend(state, runtime.context)}
    final = {**state, **update}  # report.json says what the session's state will: open requests included
    run_dir = (state.get("task") or {}).get("run_dir")
    if run_dir:
        Path(run_dir).mkdir(parents=True, exist_ok=True)
        (Path(run_dir) / "report.json").write_text(json.dumps(summarize(final), indent=2), encoding="utf-8")
    emit(run_dir, "report", status=status, reason=reason)
    return update


def _open_spend(state: AgentState, context: Context) -> dict:
    """The ledger's requests of this session still open (killed mid-request), for the cost line."""
    thread_id = (state.get("task") or {}).get("session_id")
    if context is None or context.ledger is None or not thread_id:
        return {}
    open_rows = [r for r in context.ledger.requests(thread_id) if r["state"] == "reserved"]
    if not open_rows:
        return {}
    return {"spend": {**(state.get("spend") or {}), "open_requests": len(open_rows),
                      "open_usd": round(sum(float(r["reserved_usd"]) for r in open_rows), 9)}}

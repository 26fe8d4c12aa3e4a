"""commit: judge the next candidate (learn/confirm_commit.py) and store it when confirmed
(learn/store_commit.py); one candidate per step, so each is checkpointed as it is done.

A commit already learned in this project is not run again: its result says so ("learned"), unless it
was stored by this very learn (a kill between the store and the checkpoint), which reports it as
confirmed again without a second record or confirmation.
"""

from __future__ import annotations

from pathlib import Path

from langgraph.config import get_store

from astra_memory.context import Context
from astra_memory.crash import crash_point
from astra_memory.learn.confirm_commit import RunOptions, judge_commit
from astra_memory.learn.history import Commit, HistoryError, change_of
from astra_memory.learn.state import LearnState
from astra_memory.learn.store_commit import learned, store_learned
from astra_memory.stores.memory import FixMemory
from astra_memory.stores.namespaces import namespace_for


def job_memory(job: dict) -> FixMemory:
    context = Context()
    return FixMemory(get_store(), min_score=context.min_score, floor=context.min_fused_score,
                     namespace=namespace_for(job.get("namespace") or context.namespace))


def commit(state: LearnState) -> dict:
    job, position = state["job"], state.get("position") or 0
    item = Commit(**state["candidates"][position])
    memory = job_memory(job)
    row = {"sha": item.sha, "subject": item.subject, "author_date": item.author_date}
    before = learned(memory, job["project_id"]).get(item.sha)
    if before is not None:
        ours = any(c.thread_id == job["thread_id"] for c in before.confirmations)
        row.update(verdict="confirmed" if ours else "learned", memory_id=before.memory_id, seconds=0.0,
                   reason=("stored by this learn before it was stopped" if ours
                           else f"learned before: memory {before.memory_id}"),
                   tests=list(before.learned_from.tests) if before.learned_from else [])
        return {"results": [row], "position": position + 1, "last_node": "commit"}
    try:
        change = change_of(job["workspace"], item)
    except HistoryError as exc:  # the commit is gone (a history rewritten since select walked it)
        row.update(verdict="cannot_run", reason=str(exc), seconds=0.0, runs=[], tests=[])
        return {"results": [row], "position": position + 1, "last_node": "commit"}
    options = RunOptions(test_command=job["test_command"], test_env=dict(job.get("test_env") or {}),
                         timeout_s=float(job["timeout_s"]), hide=tuple(job.get("hide") or ()))
    verdict = judge_commit(job["workspace"], item, options, Path(job["scratch"]) / item.sha[:12], change)
    row.update(verdict=verdict.verdict, reason=verdict.reason, seconds=verdict.seconds, runs=verdict.runs,
               tests=verdict.failing_tests)
    if verdict.verdict == "confirmed":
        record = store_learned(memory, item, verdict, message=change.message, source_diff=change.source_diff,
                               project=job["project"], project_id=job["project_id"], thread_id=job["thread_id"])
        row.update(memory_id=record.memory_id, outcome=verdict.outcome)
        crash_point("learn:stored")
    return {"results": [row], "position": position + 1, "last_node": "commit"}

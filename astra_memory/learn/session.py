"""Run and resume a learn: open the checkpointer and the fix memory (the backend a session uses,
backends/open.py), compile the learn graph, stream it. The library API the `learn` command is a thin
layer over.

A learn is a thread like a session's (``learn-<project>-<id>``), in the same checkpoint database:
``astra-memory resume THREAD`` and ``astra-memory learn --resume THREAD`` go on from the commit after
the last one checkpointed; one runner per thread (checkpoints/leases.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from astra_memory.backends.memory_only import ensure_home
from astra_memory.backends.open import open_backend
from astra_memory.checkpoints.leases import ThreadTables
from astra_memory.context import Context
from astra_memory.crash import watch_writes
from astra_memory.errors import AstraError
from astra_memory.learn import graph as learn_graph
from astra_memory.learn.history import open_repo
from astra_memory.learn.options import (
    DEFAULT_FILTERS,
    DEFAULT_TEST_COMMAND,
    DEFAULT_TIMEOUT_S,
    THREAD_PREFIX,
    Filters,
    is_learn_thread,
)
from astra_memory.learn.state import LearnJob, LearnState
from astra_memory.settings import Settings
from astra_memory.stores.embeddings import make_embeddings
from astra_memory.testrun.run import InterpreterError, project_environment
from astra_memory.thread_names import check_thread_id, slug
from astra_memory.workspace.identity import project_identity

RECURSION_LIMIT = 100_000  # one step per candidate commit (plus two)
OnResult = Callable[[dict[str, Any] | None, dict[str, int]], None]


class LearnError(AstraError):
    """A learn that cannot start or go on (no such thread, a bad interpreter)."""


@dataclass
class Learner:
    graph: Any
    settings: Settings
    threads: ThreadTables | None

    def config(self, thread_id: str) -> dict:
        return {"configurable": {"thread_id": thread_id}, "recursion_limit": RECURSION_LIMIT}


@contextmanager
def open_learner(settings: Settings | None = None) -> Iterator[Learner]:
    settings = settings or Settings()
    ensure_home(settings)
    embeddings = make_embeddings(settings.embeddings, settings.embedding_model_path)
    with open_backend(settings, embeddings) as backend:
        watch_writes(backend.checkpointer)
        yield Learner(learn_graph.compile(checkpointer=backend.checkpointer, store=backend.store), settings,
                      backend.threads)


def new_job(workspace: str | Path, *, settings: Settings, thread_id: str | None = None,
            test_command: str = DEFAULT_TEST_COMMAND, python: str | None = None, since: str | None = None,
            until: str = "HEAD", max_commits: int | None = None, timeout_s: float = DEFAULT_TIMEOUT_S,
            filters: Filters = DEFAULT_FILTERS, environ=None) -> LearnJob:
    """A learn job on the project at ``workspace`` (its git history), checked before anything runs."""

    workspace = Path(workspace).expanduser().resolve()
    open_repo(workspace)  # HistoryError when there is no history to learn
    try:
        test_env, interpreter, _ = project_environment(workspace, python, environ)
    except InterpreterError as exc:
        raise LearnError(str(exc)) from None
    thread_id = check_thread_id(thread_id or f"{THREAD_PREFIX}{slug(workspace.name)}-{uuid.uuid4().hex[:12]}")
    if not is_learn_thread(thread_id):
        raise LearnError(f"a learn's thread id starts with {THREAD_PREFIX!r}, not {thread_id!r}")
    identity = project_identity(workspace, settings.home)
    run_dir = settings.run_dir(thread_id)
    return LearnJob(thread_id=thread_id, workspace=str(workspace), project=workspace.name,
                    project_id=identity.project_id, identity_source=identity.source, test_command=test_command,
                    test_env=test_env, python=interpreter, timeout_s=float(timeout_s), since=since, until=until,
                    max_commits=max_commits, filters=filters.to_dict(), scratch=str(run_dir / "learn"),
                    hide=[str(workspace), str(settings.home), str(Path.home())],
                    namespace=Context().namespace, started_at=datetime.now(timezone.utc).isoformat())


def _drive(learner: Learner, payload: Any, thread_id: str, on_result: OnResult | None) -> LearnState:
    """Stream the graph; ``on_result`` gets each result row (None after the walk) and the totals so far
    (``candidates``, ``skipped``, ``done``), counted from the stream itself."""
    config = learner.config(thread_id)
    with _claimed(learner, thread_id):
        known = learner.graph.get_state(config).values or {}
        totals = {"candidates": len(known.get("candidates") or []), "skipped": len(known.get("skipped") or []),
                  "done": len(known.get("results") or [])}
        for update in learner.graph.stream(payload, config, stream_mode="updates"):
            for node, written in (update or {}).items():
                written = written or {}
                if node == "select" and "candidates" in written:
                    totals.update(candidates=len(written["candidates"]), skipped=len(written["skipped"]))
                if on_result is None:
                    continue
                if node == "select":
                    on_result(None, dict(totals))
                for row in written.get("results") or [] if node == "commit" else []:
                    totals["done"] += 1
                    on_result(row, dict(totals))
    return learner.graph.get_state(config).values


@contextmanager
def _claimed(learner: Learner, thread_id: str) -> Iterator[None]:
    if learner.threads is None:
        yield
        return
    lease = learner.threads.acquire(thread_id)
    try:
        yield
    finally:
        lease.release()


def start_learn(learner: Learner, job: LearnJob, *, on_result: OnResult | None = None) -> LearnState:
    """Learn from the history ``job`` names; ``on_result`` is called after the walk (row None) and
    after each commit (its result row), with the totals so far."""
    if learner.graph.get_state(learner.config(job["thread_id"])).values:
        raise LearnError(f"thread {job['thread_id']} already exists; `astra-memory resume {job['thread_id']}` "
                         "continues it")
    return _drive(learner, {"job": job, "results": []}, job["thread_id"], on_result)


def resume_learn(learner: Learner, thread_id: str, *, on_result: OnResult | None = None) -> tuple[LearnState, bool]:
    """Go on from the commit after the last one checkpointed. Returns (final state, whether anything ran)."""
    check_thread_id(thread_id)
    snapshot = learner.graph.get_state(learner.config(thread_id))
    if not snapshot.values or "job" not in snapshot.values:
        raise LearnError(f"there is no learn thread {thread_id!r}; `astra-memory threads` lists them")
    if not snapshot.next:
        return snapshot.values, False
    return _drive(learner, None, thread_id, on_result), True


def summary(state: LearnState) -> dict[str, Any]:
    """The learn's end as data (``--json``): counts by verdict, each candidate's row, the skipped commits."""
    results = list(state.get("results") or [])
    counts: dict[str, int] = {}
    for row in results:
        counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
    job = state.get("job") or {}
    return {"thread_id": job.get("thread_id"), "status": state.get("status"), "workspace": job.get("workspace"),
            "project_id": job.get("project_id"), "candidates": len(state.get("candidates") or []),
            "judged": len(results), "counts": counts, "results": results,
            "skipped": [{"sha": c["sha"], "subject": c["subject"], "reason": c["skipped"]}
                        for c in state.get("skipped") or []]}

"""The learn graph's state: the job, the walk's candidates and skipped commits, and one result per
candidate, appended as each is judged (so a checkpoint after each commit is where a resume goes on)."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict


class LearnJob(TypedDict, total=False):
    """What one `astra-memory learn` was asked (kept in the checkpoint: `resume` runs it as it was)."""

    thread_id: str
    workspace: str
    project: str  # the folder's name, shown
    project_id: str  # who the project is (workspace/identity.py)
    identity_source: str
    test_command: str
    test_env: dict[str, str]
    python: str | None
    timeout_s: float
    since: str | None
    until: str
    max_commits: int | None
    filters: dict[str, Any]  # history.Filters.to_dict()
    scratch: str  # where the fresh copies are built (under the thread's run folder)
    hide: list[str]  # folders the private root shows empty
    namespace: str
    started_at: str  # ISO 8601, when the learn started (shown)


class LearnState(TypedDict, total=False):
    job: LearnJob
    candidates: list[dict[str, Any]]  # history.Commit.to_dict() of each candidate, oldest first
    skipped: list[dict[str, Any]]  # history.Commit.to_dict() of each commit that is not one (its ``skipped``)
    position: int  # the next candidate to judge
    results: Annotated[list[dict[str, Any]], operator.add]  # one per judged candidate (commit_node.py)
    status: str  # "learning", then "done"
    last_node: str

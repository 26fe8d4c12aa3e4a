"""select: walk the project's history once (learn/history.py) and keep its candidates and the commits
that are not candidates, each with why. A resumed thread has them already: nothing is walked again."""

from __future__ import annotations

from astra_memory.learn.history import walk
from astra_memory.learn.options import Filters
from astra_memory.learn.state import LearnState


def select(state: LearnState) -> dict:
    if state.get("candidates") is not None:
        return {}
    job = state["job"]
    commits = walk(job["workspace"], since=job.get("since"), until=job.get("until") or "HEAD",
                   max_commits=job.get("max_commits"), filters=Filters.from_dict(job["filters"]))
    return {"candidates": [c.to_dict() for c in commits if not c.skipped],
            "skipped": [c.to_dict() for c in commits if c.skipped],
            "position": 0, "status": "learning", "last_node": "select"}

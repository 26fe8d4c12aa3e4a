"""Checkpoints on PostgreSQL: LangGraph's PostgresSaver on the process's connection pool.

Any worker that can reach the database can resume any thread: the whole checkpoint (state,
pending writes, budgets) is in the database, and the workspace path in the task is absolute.
"""

from __future__ import annotations

from functools import cache
from typing import Any


def setup_saver(conn) -> None:
    """Idempotent checkpoint migrations (run under the set-up lock, see astra_memory.db.postgres)."""
    from langgraph.checkpoint.postgres import PostgresSaver

    PostgresSaver(conn).setup()


@cache
def _checked_saver_class() -> type:
    from langgraph.checkpoint.postgres import PostgresSaver

    from astra_memory.checkpoints import CheckedReads

    class CheckedPostgresSaver(CheckedReads, PostgresSaver):
        """LangGraph's PostgresSaver whose reads name a damaged checkpoint (checkpoints.CheckedReads)."""

        where = "the PostgreSQL database (ASTRA_DATABASE_URL)"

    return CheckedPostgresSaver


def make_saver(pool: Any):
    return _checked_saver_class()(pool)


def thread_ids(saver) -> list[str]:
    """Every thread with at least one checkpoint, most recent first (checkpoint ids are time-ordered)."""
    with saver._cursor() as cur:  # the saver's own lock and pooled connection
        cur.execute("SELECT thread_id, MAX(checkpoint_id) AS last FROM checkpoints "
                    "WHERE checkpoint_ns = '' GROUP BY thread_id ORDER BY last DESC")
        return [row["thread_id"] for row in cur.fetchall()]

"""Failed attempts in export files: one JSON line each, ``"kind": "attempt"``, beside the fix lines.

An imported attempt is checked like an imported fix (stores/transfer.py): every field bounded,
its ids recomputed from its content (a file cannot choose them), its diff must parse; and it comes
in marked ``imported`` (labelled so for the model), active and unlinked, its times no later than
now: never a reason for the repetition gate to refuse an edit, and the first to go when a bound is
reached. An attempt memory already has gains the file's sessions and keeps its own content and
status.
"""

from __future__ import annotations

from typing import Any

from astra_memory.errors import MemoryValidationError
from astra_memory.stores.attempt_record import (
    AttemptRecord,
    checked_attempt_id,
    validate_attempt,
)
from astra_memory.stores.attempts import AttemptMemory, merged
from astra_memory.stores.locks import records_lock
from astra_memory.stores.record import utc_now
from astra_memory.workspace.diffs import diff_problem, diff_summary


def is_attempt_line(data: Any) -> bool:
    return isinstance(data, dict) and data.get("kind") == "attempt"


def imported_attempt(data: dict) -> AttemptRecord:
    """One export line as an imported attempt, or MemoryValidationError. Its times are not later than
    now (a date in the future must not outlast this installation's own attempts, stores/attempts.py)."""
    record = checked_attempt_id(validate_attempt(data))
    problem = diff_problem(record.diff) or (None if diff_summary(record.diff)[0] else "no file changes in it")
    if problem is not None:
        raise MemoryValidationError(f"invalid attempt record: diff: {problem}")
    now = utc_now()
    return validate_attempt({**record.model_dump(), "imported": True, "status": "active", "linked_fix": None,
                             "first_tried": min(record.first_tried, now), "last_tried": min(record.last_tried, now),
                             "sessions": [{**s.model_dump(), "tried_at": min(s.tried_at, now)} for s in record.sessions]})


def write_attempts(attempts: AttemptMemory, records: list[AttemptRecord]) -> tuple[int, int]:
    """Write imported attempts (each under its lock); how many, and how many of them memory already
    had. One memory already has gains the file's sessions and keeps its own content; the bounds hold
    after the import (imported attempts go first)."""
    by_id: dict[str, AttemptRecord] = {}
    for record in records:
        by_id[record.attempt_id] = merged(by_id[record.attempt_id], record) if record.attempt_id in by_id else record
    there = 0
    with records_lock(attempts.store, list(by_id)):
        for record in by_id.values():
            existing = attempts.get(record.attempt_id)
            there += existing is not None
            attempts.write(record if existing is None else merged(existing, record, keep_existing=True))
    for record in by_id.values():
        attempts.bound(record)
    return len(by_id), there

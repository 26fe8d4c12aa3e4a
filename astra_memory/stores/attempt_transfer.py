"""Failed attempts in export files: one JSON line each, ``"kind": "attempt"``, beside the fix lines.

An imported attempt is checked like an imported fix (stores/transfer.py): every field bounded,
its ids recomputed from its content (a file cannot choose them), its diff must parse; and it comes
in marked ``imported``: shown with the fixes' failed attempts, never a reason for the repetition gate
to refuse an edit. An attempt memory already has gains the file's sessions; its status stays.
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
from astra_memory.workspace.diffs import diff_problem


def is_attempt_line(data: Any) -> bool:
    return isinstance(data, dict) and data.get("kind") == "attempt"


def imported_attempt(data: dict) -> AttemptRecord:
    """One export line as an imported attempt, or MemoryValidationError."""
    record = checked_attempt_id(validate_attempt(data))
    problem = diff_problem(record.diff)
    if problem is not None:
        raise MemoryValidationError(f"invalid attempt record: diff: {problem}")
    return record.model_copy(update={"imported": True})


def write_attempts(attempts: AttemptMemory, records: list[AttemptRecord]) -> int:
    """Write imported attempts (merged with the ones memory has, each under its lock); how many."""
    by_id: dict[str, AttemptRecord] = {}
    for record in records:
        by_id[record.attempt_id] = merged(by_id[record.attempt_id], record) if record.attempt_id in by_id else record
    with records_lock(attempts.store, list(by_id)):
        for record in by_id.values():
            existing = attempts.get(record.attempt_id)
            attempts.write(record if existing is None else merged(existing, record))
    return len(by_id)

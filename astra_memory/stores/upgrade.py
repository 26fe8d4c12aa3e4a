"""`astra-memory memory migrate` (in place): bring a memory to one record per fix.

Version-1 memories have one record per session (their id included the session and the outcome),
so the same fix confirmed three times is three near-copies. Upgrading gives every record its
version-2 id (project, error type, normalised diff: ``record.memory_id_for``), merges the records
that land on the same id into one with all their confirmations (``memory.merge_records``), and
deletes the old ids, then points what named an old id at the new one: a record's ``superseded_by`` and a
failed attempt's ``linked_fix`` (else a superseded fix would name a record that no longer exists, and
a failed attempt linked to it would stop being shown with its fix). Idempotent: a memory already in
shape is left as it is.

A diff damaged on the way in by an earlier version (stripped of its closing blank context lines, so
it no longer parses: "Hunk is shorter than expected") is repaired first when appending those blank
lines makes it parse (``workspace.diffs.repaired_diff``); one that cannot be repaired is marked
invalidated with the reason, so it is never replayed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import reduce

from astra_memory.stores.memory import FixMemory, merge_records
from astra_memory.stores.record import SCHEMA_VERSION, FixRecord, memory_id_of
from astra_memory.workspace.diffs import diff_problem, repaired_diff


@dataclass
class UpgradeReport:
    records_before: int
    records_after: int
    merged: int  # records folded into another one
    renamed: int  # records that only got their version-2 id
    repaired: int = 0  # damaged diffs restored (closing blank context lines put back)
    marked: int = 0  # damaged diffs that could not be restored: invalidated, with the reason
    repointed: int = 0  # superseded_by / linked_fix values that named an old id, now the new one

    def to_dict(self) -> dict:
        return asdict(self)


def upgrade_memory(memory: FixMemory) -> UpgradeReport:
    """Merge duplicate fixes into one record each (see the module docstring)."""
    records, repaired, marked = [], 0, 0
    for record in memory.iter_records():
        problem = diff_problem(record.diff)
        if problem is not None:
            fixed = repaired_diff(record.diff)
            if fixed is not None:
                record = memory.update_record(record.memory_id, diff=fixed) or record
                repaired += 1
            elif record.status != "invalidated":
                reason = f"its stored diff does not parse and could not be repaired ({problem})"
                record = memory.update_record(record.memory_id, status="invalidated", status_reason=reason) or record
                marked += 1
        records.append(record)
    groups: dict[str, list[FixRecord]] = {}
    for record in records:
        groups.setdefault(memory_id_of(record), []).append(record)
    merged = renamed = 0
    new_ids: dict[str, str] = {}
    for target, group in groups.items():
        if len(group) == 1 and group[0].memory_id == target and group[0].schema_version == SCHEMA_VERSION:
            continue
        combined = reduce(merge_records, sorted(group, key=lambda r: r.timestamp))
        combined = combined.model_copy(update={"memory_id": target, "schema_version": SCHEMA_VERSION})
        memory.put_record(combined)  # merges with a record already at `target`, under its lock
        for old in group:
            if old.memory_id != target:
                memory.delete(old.memory_id)
                new_ids[old.memory_id] = target
        merged += len(group) - 1
        renamed += 1 if len(group) == 1 and group[0].memory_id != target else 0
    return UpgradeReport(records_before=len(records), records_after=memory.count(), merged=merged, renamed=renamed,
                         repaired=repaired, marked=marked, repointed=_repoint(memory, new_ids))


def _repoint(memory: FixMemory, new_ids: dict[str, str]) -> int:
    """Rewrite every ``superseded_by`` and failed attempt's ``linked_fix`` that names a key of ``new_ids``."""
    if not new_ids:
        return 0
    count = 0
    for record in memory.iter_records():
        if record.superseded_by in new_ids:
            count += memory.update_record(record.memory_id, superseded_by=new_ids[record.superseded_by]) is not None
    attempts = memory.attempts
    for attempt in attempts.iter_records():
        if attempt.linked_fix in new_ids:
            count += attempts.update(attempt.attempt_id, linked_fix=new_ids[attempt.linked_fix]) is not None
    return count

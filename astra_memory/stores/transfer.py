"""Export and import of fix records as JSON lines.

Imported memory is untrusted until this installation confirms it (DESIGN.md, trust boundaries):

- **Ids are recomputed.** A record's id is a uuid5 over its content (project, error type,
  normalised diff: ``record.memory_id_for``); a line whose id is not its content's id is refused,
  so a file cannot put its own diff under the id of a fix this installation confirmed. Ids must be
  UUIDs (FixRecord refuses anything else, ``../../..`` included). A version-1 record (its id was
  over the session) gets its version-2 id, as ``memory migrate`` gives it.
- **Confirmations come in marked ``imported``**, whatever the file says: shown, kept, never counted
  as evidence (stores/evidence.py), never a reason to replay without a human (stores/trust.py).
- **An import never changes a fix this installation confirmed**: such a record keeps its content
  and status and only gains the imported confirmations (``merge_records(..., keep_existing=True)``).
- **Lines with the same id are one record**: merged with all their confirmations before anything
  is written (the count says records, not lines).
- **Every field is bounded** (FixRecord: lengths, counters, UUID references) and so is a line.
- **Failed attempts** (``"kind": "attempt"`` lines) come in as attempts, never as fixes, marked
  imported (stores/attempt_transfer.py).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import reduce
from pathlib import Path

from langgraph.store.base import GetOp, PutOp

from astra_memory.errors import MemoryValidationError
from astra_memory.json_lines import BadLine, json_line
from astra_memory.stores.attempt_record import AttemptRecord
from astra_memory.stores.attempt_transfer import (
    imported_attempt,
    is_attempt_line,
    write_attempts,
)
from astra_memory.stores.locks import records_lock
from astra_memory.stores.memory import FIX_INDEX, FixMemory, merge_records
from astra_memory.stores.record import (
    MAX_DROPPED,
    SCHEMA_VERSION,
    FixRecord,
    check_diff,
    legacy_memory_id_of,
    memory_id_of,
    validate_record,
)

MAX_LINE_BYTES = 4_000_000  # a record at every bound (diff, 1,000 confirmations) is well under this
PROBLEMS_SHOWN = 50


@dataclass
class ImportReport:
    lines: int  # records read (non-blank lines)
    records: int  # distinct records written (lines with one id are one record)
    duplicate_lines: int  # lines merged into an earlier line of the same id
    merged_with_existing: int  # records memory already had (confirmations added)
    attempts: int = 0  # failed attempts written (stores/attempt_transfer.py), never counted as fixes
    attempts_already_there: int = 0  # of those, the ones memory already had (their sessions merged)

    def to_dict(self) -> dict:
        return asdict(self)


def as_imported(record: FixRecord) -> FixRecord:
    """The record as this installation takes it in: every confirmation marked imported (with its
    project), the file's dropped count kept apart from this installation's own."""
    return record.model_copy(update={
        "confirmations": [c.model_copy(update={"imported": True, "project": c.project or record.project})
                          for c in record.confirmations],
        "confirmations_dropped": 0,
        "imported_dropped": min(record.confirmations_dropped + record.imported_dropped, MAX_DROPPED),
    })


def checked_id(record: FixRecord) -> FixRecord:
    """The record with the id its content gives it; MemoryValidationError if a version-2 id differs. A
    record with a project id exported before its id left the folder's name out keeps that id, which
    its content gives too (``record.legacy_memory_id_of``; ``memory migrate`` moves it)."""
    expected = memory_id_of(record)
    if record.schema_version < SCHEMA_VERSION:
        return record.model_copy(update={"memory_id": expected, "schema_version": SCHEMA_VERSION})
    if record.memory_id != expected and record.memory_id != legacy_memory_id_of(record):
        raise MemoryValidationError(
            f"memory_id {record.memory_id} is not this record's id: its content (project, error type, diff) "
            f"gives {expected}; an id is never taken from a file (refused)")
    return record


def read_records(path: Path, attempts: list[AttemptRecord] | None = None) -> tuple[list[FixRecord], int]:
    """Validate every line first; report every bad line by number. Returns (records, lines read); the
    failed-attempt lines (stores/attempt_transfer.py) go to ``attempts`` (refused when it is None)."""
    records, problems = [], []
    for number, raw in enumerate(path.read_bytes().splitlines(), start=1):
        if len(raw) > MAX_LINE_BYTES:
            problems.append(f"line {number}: {len(raw)} bytes; a record line is at most {MAX_LINE_BYTES}")
            continue
        try:
            data = json_line(raw)
            if data is None:
                continue
            if is_attempt_line(data) and attempts is not None:
                attempts.append(imported_attempt(data))
                continue
            records.append(as_imported(checked_id(check_diff(validate_record(data)))))
        except BadLine as exc:
            problems.append(f"line {number}: {exc}")
        except MemoryValidationError as exc:
            problems.append(f"line {number}: {exc}")
    if problems:
        shown = problems[:PROBLEMS_SHOWN] + ([f"... and {len(problems) - PROBLEMS_SHOWN} more"]
                                             if len(problems) > PROBLEMS_SHOWN else [])
        raise MemoryValidationError(f"{path}: {len(problems)} bad line(s), nothing imported:\n" + "\n".join(shown))
    return records, len(records) + len(attempts or [])


def read_jsonl(path: Path) -> list[FixRecord]:
    """The file's records, one per id (lines of one id merged), all validated and marked imported."""
    records, _ = read_records(path)
    return merged_by_id(records)


def merged_by_id(records: list[FixRecord]) -> list[FixRecord]:
    groups: dict[str, list[FixRecord]] = {}
    for record in records:
        groups.setdefault(record.memory_id, []).append(record)
    return [reduce(merge_records, sorted(group, key=lambda r: r.timestamp)) for group in groups.values()]


def import_file(memory: FixMemory, path: Path) -> ImportReport:
    """Import all records of a file in one batch (one transaction on SQLite), or none.

    A record memory already has (same id: the same fix) is merged with it, confirmations and
    status kept; one this installation confirmed keeps its content too (module docstring).
    """
    attempts: list[AttemptRecord] = []
    read, lines = read_records(path, attempts)
    records = merged_by_id(read)
    attempt_count, attempts_there = write_attempts(memory.attempts, attempts) if attempts else (0, 0)
    if not records:
        return ImportReport(lines=lines, records=0, duplicate_lines=lines - attempt_count, merged_with_existing=0,
                            attempts=attempt_count, attempts_already_there=attempts_there)
    # Read, merge and write under the records' locks: a session confirming one of these fixes
    # meanwhile keeps its confirmation (stores/locks.py).
    with records_lock(memory.store, [r.memory_id for r in records]):
        existing = memory.store.batch([GetOp(memory.namespace, r.memory_id) for r in records])
        found = [None if item is None else memory.record_of(item) for item in existing]  # damaged: written over
        merged = sum(1 for record in found if record is not None)
        records = [r if old is None else _merge_import(old, r) for old, r in zip(found, records, strict=True)]
        memory.store.batch([PutOp(memory.namespace, r.memory_id, r.to_store_value(), index=list(FIX_INDEX))
                            for r in records])
    return ImportReport(lines=lines, records=len(records), duplicate_lines=lines - len(records) - attempt_count,
                        merged_with_existing=merged, attempts=attempt_count, attempts_already_there=attempts_there)


def import_jsonl(memory: FixMemory, path: Path) -> int:
    """``import_file``; returns the number of records written (distinct ids, not lines)."""
    return import_file(memory, path).records


def _merge_import(existing: FixRecord, imported: FixRecord) -> FixRecord:
    # A fix this installation confirmed keeps what it confirmed; an import only adds its word to it.
    return merge_records(existing, imported, keep_existing=existing.confirmed_here)

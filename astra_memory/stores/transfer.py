"""Export and import of fix records as JSON lines."""

from __future__ import annotations

import json
from pathlib import Path

from langgraph.store.base import GetOp, PutOp

from astra_memory.errors import MemoryValidationError
from astra_memory.stores.locks import records_lock
from astra_memory.stores.memory import FixMemory, merge_records
from astra_memory.stores.record import FixRecord, validate_record
from astra_memory.stores.sqlite import EMBEDDED_FIELD


def read_jsonl(path: Path) -> list[FixRecord]:
    """Validate every line first; report every bad line by number."""
    records, problems = [], []
    for number, raw in enumerate(path.read_bytes().splitlines(), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            problems.append(f"line {number}: not UTF-8 text (byte {exc.start + 1})")
            continue
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise MemoryValidationError("a line must be one JSON object")
            records.append(validate_record(data))
        except json.JSONDecodeError as exc:
            problems.append(f"line {number}: not JSON ({exc.msg})")
        except MemoryValidationError as exc:
            problems.append(f"line {number}: {exc}")
    if problems:
        raise MemoryValidationError(f"{path}: {len(problems)} bad line(s), nothing imported:\n" + "\n".join(problems))
    return records


def import_jsonl(memory: FixMemory, path: Path) -> int:
    """Import all records of a file in one batch (one transaction on SQLite), or none.

    A record memory already has (same id: the same fix) is merged with it, confirmations and
    status kept (``memory.merge_records``), not overwritten.
    """
    records = read_jsonl(path)
    if not records:
        return 0
    # Read, merge and write under the records' locks: a session confirming one of these fixes
    # meanwhile keeps its confirmation (stores/locks.py).
    with records_lock(memory.store, [r.memory_id for r in records]):
        existing = memory.store.batch([GetOp(memory.namespace, r.memory_id) for r in records])
        records = [merge_records(FixRecord.from_store_value(item.value), r) if item is not None else r
                   for item, r in zip(existing, records)]
        memory.store.batch([PutOp(memory.namespace, r.memory_id, r.to_store_value(), index=[EMBEDDED_FIELD])
                            for r in records])
    return len(records)

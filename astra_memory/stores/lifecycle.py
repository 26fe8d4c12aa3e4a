"""How a fix ages in memory: invalidated by a human, superseded by a later fix, stale where its lines are gone.

- **Invalidated** (``memory invalidate ID --reason``): kept for audit (``memory list --all``), never
  returned by search, so never shown to the model and never replayed.
- **Superseded**: a new confirmed fix in the same project whose diff changes some of the same lines
  (``diffs.changed_lines``) as an earlier active fix marks that one ``superseded_by`` the new id.
  Search ranks superseded records below the active ones; replay skips them. Only a fix stored for
  the first time supersedes (a repeat confirmation of an old fix does not reshuffle history).
- **Stale**: a hit from the project the agent is working on whose files no longer contain the lines
  its diff produced is flagged ``stale: <file> changed since <date>`` in the text the model sees.
  The check hashes the workspace file's lines once; it never hides a record.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from astra_memory.stores.memory import FixMemory, MemoryHit
from astra_memory.stores.record import FixRecord
from astra_memory.workspace.diffs import changed_lines, produced_lines

PROJECT_SCAN_LIMIT = 1_000


def invalidate(memory: FixMemory, memory_id: str, reason: str) -> FixRecord | None:
    """Mark a record invalidated with the human's reason; None if there is no such record."""
    return memory.update_record(memory_id, status="invalidated", status_reason=reason.strip())


def supersede_earlier(memory: FixMemory, record: FixRecord) -> list[str]:
    """Mark active records of ``record``'s project that changed the same lines as superseded by it."""
    lines = changed_lines(record.diff)
    if not lines or not record.project_id:  # a project is its id (workspace/identity.py), not its name
        return []
    items = memory.store.search(memory.namespace, filter={"project_id": record.project_id}, limit=PROJECT_SCAN_LIMIT)
    marked = []
    for item in items:
        other = memory.record_of(item)  # None: a damaged row, skipped (named in memory.damaged)
        if other is None or other.memory_id == record.memory_id or other.status != "active" or other.timestamp > record.timestamp:
            continue
        if changed_lines(other.diff) & lines:
            memory.update_record(other.memory_id, status="superseded", superseded_by=record.memory_id,
                                 status_reason=f"superseded by {record.memory_id}, which changes the same lines")
            marked.append(other.memory_id)
    return marked


def _line_hash(line: str) -> str:
    return hashlib.sha256(" ".join(line.split()).encode("utf-8")).hexdigest()


def stale_notes(hits: list[MemoryHit], workspace: str | Path, project_id: str) -> dict[str, str]:
    """``{memory_id: "stale: <file> changed since <date>"}`` for same-project hits whose produced lines are gone."""
    root = Path(workspace)
    hashed: dict[str, set[str] | None] = {}
    notes: dict[str, str] = {}
    for hit in hits:
        record = hit.record
        if not project_id or record.project_id != project_id:
            continue
        for rel, lines in produced_lines(record.diff).items():
            if rel not in hashed:
                path = (root / rel)
                try:
                    inside = path.resolve().is_relative_to(root.resolve()) and path.is_file()
                    hashed[rel] = {_line_hash(line) for line in path.read_text(encoding="utf-8", errors="replace")
                                   .splitlines()} if inside else None
                except OSError:
                    hashed[rel] = None
            present = hashed[rel]
            if present is None or any(_line_hash(line) not in present for line in lines if line.strip()):
                notes[record.memory_id] = f"stale: {rel} changed since {record.updated_at.date().isoformat()}"
                break
    return notes

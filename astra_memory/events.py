"""The session's event log: one JSON line per thing that happened, beside the other evidence."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from astra_memory.redact import scrub_data


def emit(run_dir: str | Path | None, kind: str, **data: Any) -> None:
    """Append an event to ``run_dir/events.jsonl`` (no-op when the session has no run dir)."""
    if not run_dir:
        return
    path = Path(run_dir) / "events.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    # Scrubbed as data, before it is JSON: a pattern never has to match across JSON escapes.
    event = scrub_data(json.loads(json.dumps(data, default=str)))
    line = json.dumps({"ts": datetime.now(timezone.utc).isoformat(), "event": kind, **event})
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(line + "\n")


def read_events(run_dir: str | Path) -> list[dict[str, Any]]:
    path = Path(run_dir) / "events.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]

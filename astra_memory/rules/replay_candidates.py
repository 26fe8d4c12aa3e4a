"""Which memory hits replay may try on this workspace, and in words a user understands, why not the others.

The mandatory search delivers every hit above the search's floor (``DEFAULT_MIN_SCORE``, 0.15): a
floor against noise, not a relevance filter, so the model sees similar fixes as quoted data. Replay
is stricter, because it writes files and runs the project's tests with no one reading the diff
first. A hit is tried only when all of these hold:

- it is an **active** record (not invalidated or superseded) and holds a stored **diff** that is
  **replayable**: byte for byte the confirmed one, never a diff scrubbed of a secret
  (``FixRecord.replay_refusal``: replaying ``"password": "[REDACTED]"`` is no fix);
- every file its diff changes **exists in this workspace** (a fix of another project's
  ``app/x.py`` is not tried on a project without one);
- its **match is strong**: the cosine score of its record for this failure's symptoms is at least
  ``REPLAY_MIN_SCORE`` (0.5). On the bundled cases' measured MiniLM scores (context.py,
  docs/results.md) the same bug coming back scores about 0.9, related bugs in other projects have a
  median of 0.45 and unrelated pairs a median of 0.29; a hit below 0.5 is a similar symptom, for the
  model to weigh, not the same bug.

Each hit passed over is named with its reason (the replay line on screen, the session's events
and report), e.g. ``18ab11b5-...: its file app/x.py is not in this workspace``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from astra_memory.errors import WorkspaceError
from astra_memory.stores.record import FixRecord
from astra_memory.workspace.diffs import changed_files
from astra_memory.workspace.files import Workspace

REPLAY_MIN_SCORE = 0.5


def missing_files(record: FixRecord, workspace: Workspace) -> list[str]:
    """The files ``record``'s diff changes that are not regular files in ``workspace``."""
    missing = []
    for rel in changed_files(record.diff) or record.file_paths:
        try:
            parts = workspace.parts(rel)
        except WorkspaceError:  # absolute, "..": not a path in this workspace
            missing.append(rel)
            continue
        if not parts or not workspace.root.joinpath(*parts).is_file():
            missing.append(rel)
    return missing


def why_not_replayed(record: FixRecord, score: float, workspace: Workspace) -> str:
    """Why replay passes over this hit, or "" when it may be tried (module docstring)."""
    if record.status != "active":
        later = f" by {record.superseded_by}" if record.superseded_by else ""
        return f"it is {record.status}{later}" if record.status == "superseded" else f"it is {record.status}"
    if not record.diff.strip():
        return "it has no stored diff"
    if record.replay_refusal:  # a scrubbed diff is not the confirmed one: never applied
        return f"it is {record.replay_refusal}"
    missing = missing_files(record, workspace)
    if missing:
        names = ", ".join(missing)
        return (f"its file {names} is not in this workspace" if len(missing) == 1
                else f"its files ({names}) are not in this workspace")
    if score < REPLAY_MIN_SCORE:
        shown = math.floor(score * 100) / 100  # 0.499 shows as 0.49, never as 0.50 "below 0.5"
        return f"match {shown:.2f} is below {REPLAY_MIN_SCORE} (replay tries only strong matches)"
    return ""


def passed_over_lines(info: Mapping) -> list[str]:
    """``skipped <id>: <why>`` for each hit a replay step did not try (``ReplayInfo.passed_over``):
    the CLI's replay line and the needs_model reason."""
    return [f"skipped {p['memory_id']}: {p['result']}" for p in info.get("passed_over") or []]

"""Outcome-aware ranking: a fix confirmed again, or replayed, moves up past weaker neighbours.

Why: a record confirmed by several sessions, or replayed as it stands and confirmed by the tests,
is a fix known to work more than once; a one-off may have been right by luck. Similarity decides
which fixes are about this failure; evidence only reorders what similarity already put close.

How: after fusion (stores/hybrid.py) each candidate's position moves up by ``lift`` places:
one place per doubling of its evidence beyond the first confirmation, a replay counting twice
(it proves the stored diff itself, not a rewrite of it), never more than ``MAX_LIFT`` places.
A lifted record goes past the neighbours it would tie with. The constants were fixed before
measuring; ``bench evidence`` measures the ranking with and without (docs/results.md).

What counts: only this installation's own confirmations in the record's own project. Imported
confirmations (``memory import``) are another installation's word, not evidence here; a confirmation
from another project (the fix replayed there) says the diff works elsewhere, not that this bug
comes back here.

Scope: only records of the project the search is for are lifted. Evidence is about a bug that
came back where it was fixed (record ids are per project, so confirmations only accrue there);
for another project's failure a fix's popularity says nothing about its relevance, and the
bench measured that lifting every project's records cost recall on held-out cases (docs/results.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

MAX_LIFT = 2  # places; fixed before measuring, not fitted


def counted(confirmation: Any, project_id: str) -> bool:
    """A confirmation that is evidence: this installation's own (not imported), in the project
    ``project_id`` (workspace/identity.py; a confirmation without one is in no project)."""
    return (isinstance(confirmation, Mapping) and not confirmation.get("imported")
            and bool(project_id) and confirmation.get("project_id") == project_id)


def evidence(value: Mapping[str, Any]) -> int:
    """Confirmations beyond the first, replays counted twice, read from a stored record value."""
    project_id = value.get("project_id") or ""
    confirmations = [c for c in value.get("confirmations") or [] if counted(c, project_id)]
    replays = sum(1 for c in confirmations if c.get("kind") == "replay")
    total = len(confirmations) + int(value.get("confirmations_dropped") or 0)
    return max(0, total - 1) + replays


def lift(strength: int, max_lift: int = MAX_LIFT) -> int:
    """Places a record moves up for ``strength`` evidence: floor(log2(1 + strength)), bounded."""
    return min(max_lift, int(math.log2(1 + strength))) if strength > 0 else 0


def evidence_order(values: Sequence[Mapping[str, Any]], *, project_id: str | None,
                   max_lift: int = MAX_LIFT) -> list[int]:
    """Indices of ``values`` (in fused order) after each record of the project ``project_id`` moved
    up by its lift. ``project_id=None`` lifts every record (the bench's "all projects" variant)."""
    def key(i: int) -> tuple[int, int, int]:
        value = values[i]
        mine = project_id is None or (bool(project_id) and value.get("project_id") == project_id)
        up = lift(evidence(value), max_lift) if mine else 0
        return (i - up, -up, i)  # lifted by one: past the neighbour it now ties with
    return sorted(range(len(values)), key=key)

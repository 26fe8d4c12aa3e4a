"""AttemptMemory: failed attempts, on the same LangGraph store as the fixes but never among them.

Kept in ``attempts_namespace(fix namespace)`` (stores/attempt_record.py), which no fix search can
reach. What the graph does with them:

- ``record``: a tested change that did not pass (nodes/attempt_log.py, from test, confirm, store);
  the same change on the same failure again adds its session to the one record;
- ``delivered``: what the first memory search shows beside the fixes: the attempts on exactly
  this failure (same project, same failing tests) first, then ones on a similar symptom elsewhere
  only above ``OTHER_MIN_SCORE``; at most ``MAX_DELIVERED``; never the ones linked to a fix;
- ``repeat_of``: the repetition gate's question (nodes/edit.py): was exactly this change (same
  files before, same files after) already tried on this failure and failed, by a session of this
  installation, in the state the change would be tested in now (``failed_in``,
  testrun/tested_state.py)? (An imported attempt, or one whose state is unknown, never blocks an edit.)
- ``link``: a fix confirmed later for the same failure takes its attempts ("tried first, did not
  pass"); linked attempts are shown with the fix and no longer delivered on their own.

Bounded so that a looping model cannot flood memory: at most ``MAX_PER_FAILURE`` records per
failure and ``MAX_PER_PROJECT`` per project; the least recently tried go first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from langgraph.store.base import BaseStore

from astra_memory.errors import MemoryValidationError
from astra_memory.stores.attempt_record import (
    MAX_DROPPED,
    MAX_SESSIONS,
    MAX_STATES,
    AttemptEnd,
    AttemptRecord,
    AttemptSession,
    attempt_id_for,
    attempts_namespace,
    failure_key,
    failure_tests,
    validate_attempt,
)
from astra_memory.stores.locks import record_lock
from astra_memory.stores.namespaces import DEFAULT_NAMESPACE
from astra_memory.stores.record import read_stored, utc_now
from astra_memory.stores.store_needs import EMBEDDED_FIELD, delete_item
from astra_memory.testrun.same_ids import searched_text

MAX_DELIVERED = 3
# An attempt from another failure is shown only when its symptom is this close (MiniLM cosine; the
# fix search's floor is 0.15). Strict on purpose: a failed change on another bug is noise.
OTHER_MIN_SCORE = 0.80
MAX_PER_FAILURE = 10
MAX_PER_PROJECT = 200
_PAGE = 500


@dataclass(frozen=True)
class AttemptHit:
    record: AttemptRecord
    score: float | None  # None: found by its failure, not by similarity
    same_failure: bool

    def to_dict(self) -> dict:
        return {"kind": "attempt", "same_failure": self.same_failure,
                "score": None if self.score is None else round(self.score, 4),
                **self.record.model_dump(mode="json")}


class AttemptMemory:
    """Failed attempts of one fix namespace."""

    def __init__(self, store: BaseStore, fix_namespace: tuple[str, ...] = DEFAULT_NAMESPACE,
                 damaged: dict[str, str] | None = None):
        self.store = store
        self.namespace = attempts_namespace(fix_namespace)
        # id -> what is wrong, for each damaged row a read skipped (FixMemory shares its own: one count)
        self.damaged = {} if damaged is None else damaged

    # -- write ------------------------------------------------------------------------------
    def record(self, *, project: str, failing_tests: list[str], symptom: str, error_type: str, diff: str,
               file_states: dict[str, list[str]], end: AttemptEnd, outcome: str, still_failing: list[str],
               newly_failing: list[str], session_id: str, model: str = "",
               when: datetime | None = None, state: str | None = None, project_id: str = "") -> AttemptRecord:
        """Keep one tested change that did not pass (the same change on the same failure: one record).
        ``project``: the folder's name (shown); ``project_id``: who the project is (failure_key);
        ``state``: the digest of the state it failed in (testrun/tested_state.py), None if unknown."""
        key = failure_key(project, failing_tests, project_id)
        attempt_id = attempt_id_for(key, file_states)
        now = when or utc_now()
        session = {"session_id": session_id, "model": model, "outcome": outcome, "tried_at": now}
        new = validate_attempt({
            "attempt_id": attempt_id, "project": project, "failure_key": key,
            **({"project_id": project_id} if project_id else {}),
            "failing_tests": failure_tests(failing_tests), "symptom": symptom, "error_type": error_type,
            "diff": diff, "file_states": file_states, "end": end, "outcome": outcome,
            "still_failing": still_failing[:50], "newly_failing": newly_failing[:50], "sessions": [session],
            "failed_in": [state] if state else [], "first_tried": now, "last_tried": now})
        with record_lock(self.store, attempt_id):
            existing = self.get(attempt_id)
            record = new if existing is None else merged(existing, new)
            self.write(record)
        self.bound(record)
        return record

    def write(self, record: AttemptRecord) -> None:
        self.store.put(self.namespace, record.attempt_id, record.to_store_value(), index=[EMBEDDED_FIELD])

    def bound(self, record: AttemptRecord) -> None:
        """Hold the bounds of ``record``'s failure and project: this installation's own attempts are
        kept before imported ones, then the most recently tried."""
        for field, value, limit in (("failure_key", record.failure_key, MAX_PER_FAILURE),
                                    (("project_id", record.project_id) if record.project_id
                                     else ("project", record.project)) + (MAX_PER_PROJECT,)):
            kept = sorted(self._where({field: value}), key=lambda r: (not r.imported, r.last_tried), reverse=True)
            for old in kept[limit:]:
                if old.attempt_id != record.attempt_id or record.imported:
                    self.delete(old.attempt_id)

    def update(self, attempt_id: str, **changes) -> AttemptRecord | None:
        with record_lock(self.store, attempt_id):
            existing = self.get(attempt_id)
            if existing is None:
                return None
            record = validate_attempt({**existing.model_dump(), **changes})
            self.write(record)
        return record

    def link(self, *, failing_tests: list[str], fix_id: str, project: str = "", project_id: str = "") -> list[str]:
        """Link every active attempt on this failure to the fix that finally worked; their ids."""
        linked = []
        for record in self._where({"failure_key": failure_key(project, failing_tests, project_id)}):
            if record.status == "active" and self.update(record.attempt_id, status="linked", linked_fix=fix_id):
                linked.append(record.attempt_id)
        return linked

    # -- read -------------------------------------------------------------------------------
    def get(self, attempt_id: str) -> AttemptRecord | None:
        item = self.store.get(self.namespace, attempt_id)
        return None if item is None else self._read(item.key, item.value)

    def _where(self, filter_: dict) -> list[AttemptRecord]:
        records, offset = [], 0
        while True:
            items = self.store.search(self.namespace, filter=filter_, limit=_PAGE, offset=offset)
            records += [r for r in (self._read(i.key, i.value) for i in items) if r is not None]
            if len(items) < _PAGE:
                return records
            offset += _PAGE

    def iter_records(self) -> Iterator[AttemptRecord]:
        yield from self._where({})

    def linked_to(self, fix_id: str) -> list[AttemptRecord]:
        return sorted(self._where({"linked_fix": fix_id}), key=lambda r: r.first_tried)

    def repeat_of(self, *, failing_tests: list[str], file_states: dict[str, list[str]],
                  state_now: Callable[[], str], project: str = "", project_id: str = "") -> AttemptRecord | None:
        """The recorded failed attempt of exactly this change on this failure that failed in the state
        ``state_now()`` gives (asked only when there is such a record: it reads the project), if any."""
        record = self.get(attempt_id_for(failure_key(project, failing_tests, project_id), file_states))
        if record is None or record.status == "invalidated" or record.imported or not record.failed_in:
            return None
        return record if state_now() in record.failed_in else None

    def delivered(self, query: str, *, failing_tests: list[str], project: str = "", project_id: str = "",
                  limit: int = MAX_DELIVERED) -> list[AttemptHit]:
        """What the memory search shows beside the fixes (see the module docstring)."""
        key = failure_key(project, failing_tests, project_id)
        same = sorted((r for r in self._where({"failure_key": key}) if r.status == "active"),
                      key=lambda r: (not r.imported, r.last_tried), reverse=True)  # this installation's first
        hits = [AttemptHit(r, None, True) for r in same[:limit]]
        if len(hits) < limit and query.strip():
            for item in self.store.search(self.namespace, query=searched_text(query), limit=limit + len(same)):
                if len(hits) >= limit:
                    break
                record = self._read(item.key, item.value)
                if (record is not None and record.failure_key != key and record.status == "active"
                        and item.score is not None and item.score >= OTHER_MIN_SCORE):
                    hits.append(AttemptHit(record, float(item.score), False))
        return hits

    def _read(self, key: str, value: Any) -> AttemptRecord | None:
        """A stored attempt, or None when the stored value is not a valid one (a file edited by hand, a
        newer version's field), kept in ``damaged``: one damaged attempt must not stop every session's
        memory search."""
        try:
            return read_stored(AttemptRecord, value, "attempt record")
        except MemoryValidationError as exc:
            self.damaged[key] = str(exc)
            return None

    # -- manage -----------------------------------------------------------------------------
    def delete(self, attempt_id: str) -> bool:
        """Delete an attempt and its vectors, damaged or not; False if there was none."""
        return delete_item(self.store, self.namespace, attempt_id)


def merged(existing: AttemptRecord, new: AttemptRecord, *, keep_existing: bool = False) -> AttemptRecord:
    """The same change on the same failure tried again: one record, each session once, the latest
    outcome (a linked or invalidated status stays; an attempt of this installation's own stays its
    own). ``keep_existing`` (an import): ``existing`` keeps its content and only gains sessions.
    Validated again: counts from a file cannot overflow a bound."""
    sessions = {s.session_id: s for s in existing.sessions}
    for s in new.sessions:
        sessions.setdefault(s.session_id, s)
    ordered: list[AttemptSession] = sorted(sessions.values(), key=lambda s: s.tried_at)
    dropped = min(existing.sessions_dropped + new.sessions_dropped + max(0, len(ordered) - MAX_SESSIONS), MAX_DROPPED)
    latest = existing if keep_existing else new
    # the states it failed in: a file's (an imported record's) never become this installation's own
    earlier = [] if existing.imported and not new.imported else existing.failed_in
    states = existing.failed_in if keep_existing else [s for s in earlier if s not in new.failed_in] + new.failed_in
    return validate_attempt({
        **existing.model_dump(), "sessions": [s.model_dump() for s in ordered[-MAX_SESSIONS:]],
        "sessions_dropped": dropped, "outcome": latest.outcome, "end": latest.end,
        "failed_in": states[-MAX_STATES:],
        "still_failing": latest.still_failing, "newly_failing": latest.newly_failing,
        "last_tried": existing.last_tried if keep_existing else max(existing.last_tried, new.last_tried),
        "imported": existing.imported and new.imported})

"""FixMemory: the service the graph and the CLI use to store and find confirmed fixes.

It sits on any LangGraph ``BaseStore`` with a semantic index (SqliteStore by default). It
validates every record, refuses outcomes the current run did not confirm, gives each fix a
deterministic id so a repeated store updates instead of duplicating, keeps the record's own
timestamps, and makes sure a deleted record never comes back from search.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from langgraph.store.base import BaseStore, Item

from astra_memory.context import DEFAULT_MIN_SCORE
from astra_memory.errors import MemoryValidationError, UnconfirmedOutcomeError
from astra_memory.stores.attempts import AttemptMemory
from astra_memory.stores.confidence import TIES, evidence, min_cosine_without_evidence, own_history, strength
from astra_memory.stores.evidence import evidence_order
from astra_memory.stores.hybrid import (
    CANDIDATE_POOL,
    DIAGNOSIS_FLOOR_OFFSET,
    DIAGNOSIS_MARGIN,
    FUSED_FLOOR,
    deliverable,
    hybrid_ranking,
)
from astra_memory.stores.locks import record_lock
from astra_memory.stores.mechanism import CAUSE_FIELD, mechanism_text
from astra_memory.stores.namespaces import DEFAULT_NAMESPACE
from astra_memory.stores.record import (
    MAX_CONFIRMATIONS,
    MAX_DROPPED,
    Confirmation,
    ConfirmationKind,
    FixRecord,
    LearnedFrom,
    RecordDiagnosis,
    cause_text_of,
    check_diff,
    content_problem,
    legacy_memory_id_of,
    memory_id_of,
    read_stored,
    safe_problem,
    utc_now,
    validate_record,
)
from astra_memory.stores.recurrence import another_bug_of_the_project
from astra_memory.stores.store_needs import EMBEDDED_FIELD, delete_item, needs_of
from astra_memory.testrun.same_ids import searched_text
from astra_memory.testrun.symptoms import failing_tests, traceback_functions

NAMESPACE = DEFAULT_NAMESPACE  # the shared default; named ones: stores/namespaces.py
PLACEHOLDER_ID = "00000000-0000-0000-0000-000000000000"  # replaced by the content id once validated
MAX_QUERY_CHARS = 4_000
EVIDENCE_SCOPES = ("project", "all", "off")  # whose records evidence lifts (stores/evidence.py)
# Every fix is embedded twice: its symptom and fix, and its cause without the project's names
# (stores/mechanism.py). A search scores a record by its better field.
FIX_INDEX = (EMBEDDED_FIELD, CAUSE_FIELD)
SEARCHED_AGAINST = ("symptom", "cause")  # what a query's words are matched with (search_codebase_memory)


@dataclass(frozen=True)
class MemoryHit:
    """A record found by search, with its cosine similarity to the query, from a hybrid search the
    fused score it was ranked and delivered by (stores/hybrid.py), and from a symptom search the
    evidence it may be shown on (stores/confidence.py: "" for none; None where it is not asked)."""

    record: FixRecord
    score: float
    fused: float | None = None
    evidence: str | None = None

    def to_dict(self) -> dict:
        fused = {} if self.fused is None else {"fused": round(self.fused, 4)}
        shown_on = {} if self.evidence is None else {"evidence": self.evidence}
        return {"score": round(self.score, 4), **fused, **shown_on, **self.record.model_dump(mode="json")}


def lexical_text(value: dict, against: str) -> str:
    """The words of a stored record a query's words are matched with: the embedded text (symptom and
    fix) for a symptom query; for a diagnosis, the record's cause without the project's names
    (stores/mechanism.py; computed from its fields for a record written before it was stored)."""
    if against == "cause":
        # (a record the previous version wrote holds its whole cause there: reduced here the same way)
        return mechanism_text(str(value.get(CAUSE_FIELD) or cause_text_of(value)))
    return str(value.get(EMBEDDED_FIELD, ""))


class FixMemory:
    """Validated, idempotent memory of confirmed fixes on a LangGraph store."""

    def __init__(self, store: BaseStore, *, min_score: float = DEFAULT_MIN_SCORE,
                 namespace: tuple[str, ...] = NAMESPACE, hybrid: bool = True, evidence: str = "project",
                 floor: float = FUSED_FLOOR):
        if evidence not in EVIDENCE_SCOPES:
            raise ValueError(f"evidence must be one of {EVIDENCE_SCOPES}, got {evidence!r}")
        self.store = store
        self.min_score = min_score
        self.namespace = namespace
        self.hybrid = hybrid  # False: the vector order alone (the retrieval bench's ablation)
        self.evidence = evidence  # "off" and "all": the evidence bench's comparisons
        self.floor = floor  # the fused score a hit needs (stores/hybrid.py); calibrated on MiniLM
        # id -> what is wrong, for each damaged row (a value that is not a valid record, a vector search
        # cannot use) this instance's reads skipped, fixes and attempts: skipped, never an error, and said
        # (the memory_search node's event and progress line, the `memory` commands' note).
        self.damaged: dict[str, str] = {}

    @property
    def attempts(self) -> AttemptMemory:
        """This namespace's failed attempts (stores/attempts.py): beside the fixes, never among them."""
        return AttemptMemory(self.store, self.namespace, damaged=self.damaged)

    def record_of(self, item: Item, *, shape_only: bool = False) -> FixRecord | None:
        """The fix a stored item holds, or None when its value is damaged (named in ``damaged``): not a
        valid record, or no longer the content stored under its id (``content_problem``: a diff edited
        in the database, id kept). Every read of a fix comes here (search, get, list, replay's
        candidates, the model's hits), so a changed record is never replayed nor shown as a fix."""
        try:
            record = read_stored(FixRecord, item.value, "fix record", shape_only=shape_only)
            problem = content_problem(item.key, item.value)
            if problem is not None:
                raise MemoryValidationError(safe_problem(f"changed fix record: {problem}"))
            return record
        except MemoryValidationError as exc:
            self.damaged[item.key] = str(exc)
            return None

    def _note_unreadable_rows(self) -> None:
        """Rows whose value is not valid JSON, which a filtered search passes over (backends/sqlite/search.py)."""
        for key in needs_of(self.store).unreadable_rows(self.namespace):
            self.damaged.setdefault(key, "its value is not valid JSON (cut off or edited by hand): a search with a "
                                         "filter cannot read it")

    def _note_skipped_vectors(self) -> None:
        """Records whose stored vector has another length than the index's: the SQLite store's searches
        skip them (backends/sqlite/search.py); PostgreSQL's vector column cannot hold one (stores/store_needs.py)."""
        for _, key, dims in needs_of(self.store).skipped_vectors(self.namespace):
            length = (f"has {dims:g} dimensions" if float(dims).is_integer()  # float32s: a byte count / 4
                      else f"is {round(dims * 4)} bytes (not whole 4-byte values)")
            self.damaged[key] = (f"its stored vector {length}, not {self.store.index_config['dims']} dimensions: "
                                 f"search skips it (storing the fix again embeds it again)")

    # -- search ---------------------------------------------------------------------------
    def search_codebase_memory(self, query: str, *, error_type: str | None = None, top_k: int = 3,
                               min_score: float | None = None, project_id: str | None = None,
                               against: str = "symptom") -> list[MemoryHit]:
        """The records likely to be about ``query``, best first: possibly none (stores/hybrid.py).

        ``against``: ``"symptom"`` (a failure's symptoms: its words are matched with the text the
        record embeds, its symptom and fix) or ``"cause"`` (a diagnosis: the query and each record's
        cause, ``FixRecord.cause_text``, are both taken without the project's names, for the vector and
        for the words: stores/mechanism.py; and the cut-off is the diagnosis search's own).
        ``project_id``: the project the search is for (workspace/identity.py: its repository, never a
        folder name); its records confirmed again or replayed move up
        a place or two (stores/evidence.py), and in a symptom search its fixes for none of the query's
        failing tests are left out (stores/recurrence.py). Without it no record is lifted or left out.
        A ``min_score`` of 0 or below shows every rank: no floor and no margin either (benches, tools).
        """
        if not isinstance(query, str) or not query.strip():
            raise MemoryValidationError("query must be a non-empty string describing the failure")
        if len(query) > MAX_QUERY_CHARS:
            raise MemoryValidationError(f"query is longer than {MAX_QUERY_CHARS} characters")
        if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= 10:
            raise MemoryValidationError(f"top_k must be an integer from 1 to 10, got {top_k!r}")
        if against not in SEARCHED_AGAINST:
            raise ValueError(f"against must be one of {SEARCHED_AGAINST}, got {against!r}")
        threshold = self.min_score if min_score is None else min_score
        filter_ = {"error_type": error_type.strip()} if error_type and error_type.strip() else None
        query = query.strip()
        limit = max(top_k, CANDIDATE_POOL) if self.hybrid else top_k
        # A diagnosis is embedded without the project's names, as the records' causes are; a symptom without
        # its failing test ids, as the records' symptoms are (testrun/same_ids.py: read by the rules only).
        words = searched_text(query)
        searched = mechanism_text(words) if against == "cause" else words
        items = self.store.search(self.namespace, query=searched, filter=filter_, limit=limit)
        own_pool = self.hybrid and against == "symptom" and bool(project_id)
        if own_pool:
            items = self._with_own_pool(items, searched, filter_, limit, project_id)
        if filter_ or own_pool:
            self._note_unreadable_rows()  # a filter passed over them: say so, as an unfiltered search does
        self._note_skipped_vectors()
        # A damaged row is skipped (named in `damaged`), never an error, and weighs on nothing: each
        # candidate's shape is checked (cheap); only the delivered few are read in full (scrubbed). An
        # invalidated fix is never returned, nor weighs on the others' lexical scores.
        items = [item for item in items if self.record_of(item, shape_only=True) is not None
                 and item.value.get("status") != "invalidated"]
        failing, functions = failing_tests(query), traceback_functions(query)  # with their ids (same_ids.py)
        # This project's own fixes among the candidates, those of other bugs included (stores/confidence.py).
        has_own = own_history((item.value for item in items), project_id)
        if against == "symptom" and project_id:  # the project's fixes of other tests: another bug (stores/recurrence.py)
            items = [item for item in items
                     if not another_bug_of_the_project(item.value, project_id, failing, functions)]
        cosines = [float(item.score) if item.score is not None else 0.0 for item in items]
        fused: list[float | None] = [None] * len(items)
        if self.hybrid:  # vector scores fused with BM25 over the same candidates (stores/hybrid.py)
            order, scores = hybrid_ranking(words, [lexical_text(item.value, against) for item in items], cosines)
            items, cosines, fused = [items[i] for i in order], [cosines[i] for i in order], [scores[i] for i in order]
        ranked = list(zip(items, cosines, fused, strict=True))
        if self.evidence != "off" and (project_id or self.evidence == "all"):
            order = evidence_order([item.value for item, _, _ in ranked],
                                   project_id=None if self.evidence == "all" else project_id)
            ranked = [ranked[i] for i in order]
        if against == "symptom" and has_own:  # the stronger evidence first (stores/confidence.py ``strength``)
            ranked.sort(key=lambda row: strength(row[0].value, project_id, failing, functions))
        ranked.sort(key=lambda row: row[0].value.get("status") == "superseded")  # below every active fix (stable)
        # The minimum score is calibrated on the cosine; the floor and the margin on the fused score.
        cut = self.hybrid and threshold > 0  # else every rank (benches, tools): no floor, no margin, no gate
        cause = against == "cause"  # the diagnosis search has its own cut-off (stores/hybrid.py)
        # A symptom search's hit needs evidence to be shown (stores/confidence.py); each hit carries its own,
        # so a bench that asks for every rank can apply the product's rule (bench/retrieval.py ``_shown``).
        needed = min_cosine_without_evidence(self.floor)
        shown_on = [None if cause else evidence(item.value, cosine, project_id, failing, functions, needed, has_own)
                    for item, cosine, _ in ranked]
        keep = deliverable([c for _, c, _ in ranked], threshold, top_k,
                           floor=self.floor + (DIAGNOSIS_FLOOR_OFFSET if cause else 0.0),
                           margin=DIAGNOSIS_MARGIN if cause and cut else None,
                           fused=[f for _, _, f in ranked] if cut else None,
                           allowed=[e is None or bool(e) for e in shown_on] if cut and needed > float("-inf") else None,
                           tied=[e in TIES for e in shown_on])
        hits = [(self.record_of(ranked[i][0]), ranked[i][1], ranked[i][2], shown_on[i]) for i in keep]
        return [MemoryHit(*hit) for hit in hits if hit[0] is not None]  # None: valid only unscrubbed (a hand edit)

    # -- own pool -------------------------------------------------------------------------
    def _with_own_pool(self, items: list, query: str, filter_: dict | None, limit: int, project_id: str) -> list:
        """``items`` (the vector search's candidates) and the project's own best ``limit`` by the vector, in
        vector order: a project's own fixes are ranked and judged on their own evidence (stores/confidence.py),
        so another project's fixes must not crowd them out of the pool (on bench history a project's relevant
        fix at vector rank 41 of a memory of 103 fixes was never ranked; docs/results.md)."""
        own = self.store.search(self.namespace, query=query, filter={**(filter_ or {}), "project_id": project_id},
                                limit=limit)
        seen = {item.key for item in items}
        merged = items + [item for item in own if item.key not in seen]
        return sorted(merged, key=lambda item: -(item.score if item.score is not None else 0.0))

    # -- store ----------------------------------------------------------------------------
    def store_fix_memory(self, fix_description: str, error_type: str, file_paths: list[str], outcome: str,
                         *, confirmed_outcome: str | None, symptom: str, diff: str, session_id: str,
                         thread_id: str | None = None, project: str = "", project_id: str = "", model: str = "",
                         timestamp: datetime | None = None, kind: ConfirmationKind = "fix",
                         diagnosis: RecordDiagnosis | dict | None = None,
                         not_replayable: str | None = None,
                         learned_from: LearnedFrom | dict | None = None) -> FixRecord:
        """Store a confirmed fix. ``outcome`` must be exactly the string the passing run produced.

        The same fix (project, error type, normalised diff) confirmed again is the same record: this
        session is added to its ``confirmations`` (``kind="replay"`` when memory's own diff was replayed).
        ``project``: the project's name (shown); ``project_id``: who it is (workspace/identity.py), what
        trust, recurrence and ranking compare. ``diagnosis``: the fixing session's stated diagnosis (error type, cause, files), kept with the
        fix so that a later diagnosis is matched against causes (``FixRecord.diagnosis``).
        ``not_replayable``: why the diff must never be applied (it was scrubbed: nodes/store.py).
        ``learned_from``: the commit of the project's history a learned fix came from (learn/store_commit.py).
        """
        if not confirmed_outcome or outcome != confirmed_outcome:
            raise UnconfirmedOutcomeError(
                f"outcome {outcome!r} was not confirmed by this run's passing tests"
                + (f" (confirmed: {confirmed_outcome!r})" if confirmed_outcome else " (no passing run)")
            )
        if isinstance(file_paths, str):
            raise MemoryValidationError("file_paths must be a list of paths, not one string")
        now = utc_now()
        when = timestamp or now
        if when.tzinfo is None:
            raise MemoryValidationError("timestamp must be timezone-aware (e.g. 2026-11-29T12:00:00+00:00)")
        for name, text in (("fix_description", fix_description), ("error_type", error_type)):
            if not isinstance(text, str) or not text.strip():
                raise MemoryValidationError(f"{name} must be non-empty text")
        confirmation = {"session_id": session_id, "thread_id": thread_id or session_id, "outcome": outcome,
                        "confirmed_at": when, "model": model, "kind": kind, "project": project,
                        "project_id": project_id}
        record = validate_record({
            "memory_id": PLACEHOLDER_ID, "symptom": symptom, "error_type": error_type,
            "file_paths": list(file_paths), "fix_description": fix_description, "diff": diff,
            "outcome": outcome, "timestamp": when, "updated_at": now, "session_id": session_id,
            "thread_id": thread_id or session_id, "project": project, "project_id": project_id, "model": model,
            "confirmations": [confirmation],
            **({"diagnosis": diagnosis} if diagnosis else {}),
            **({"not_replayable": not_replayable} if not_replayable else {}),
            **({"learned_from": learned_from} if learned_from else {}),
        })
        # The id over the fields as stored (scrubbed, trimmed): `memory import` recomputes it from
        # an exported record's content and refuses a mismatch, so the two must agree.
        record = check_diff(record.model_copy(update={"memory_id": memory_id_of(record)}))
        legacy = legacy_memory_id_of(record)
        if legacy and self.store.get(self.namespace, record.memory_id) is None and self.get(legacy) is not None:
            # stored before the id left the folder's name out: the same fix is still that one record
            record = record.model_copy(update={"memory_id": legacy})
        return self.put_record(record)

    def put_record(self, record: FixRecord) -> FixRecord:
        """Upsert a record: an existing one with this id keeps its first-confirmed fields and gains
        the new record's confirmations (read-modify-write under the record's lock, stores/locks.py)."""
        with record_lock(self.store, record.memory_id):
            existing = self.get(record.memory_id)
            if existing is not None:
                record = merge_records(existing, record)
            self._write(record)
        return record

    def add_confirmation(self, memory_id: str, confirmation: Confirmation) -> FixRecord | None:
        """Add one session's confirmation to a stored record (under its lock); None if there is none.

        A fix replayed into another project and confirmed there is confirmed in that project too:
        the project's own record gets the session, and so does the record whose diff was replayed.
        """
        with record_lock(self.store, memory_id):
            existing = self.get(memory_id)
            if existing is None:
                return None
            record = merge_records(existing, existing.model_copy(update={
                "confirmations": [confirmation], "confirmations_dropped": 0, "imported_dropped": 0,
                "updated_at": utc_now()}), keep_existing=True)
            self._write(record)
        return record

    def _write(self, record: FixRecord) -> None:
        # Name the embedded fields explicitly: a put that skipped re-indexing would leave the
        # old vectors in place (SqliteStore keeps them on `index=False`).
        self.store.put(self.namespace, record.memory_id, record.to_store_value(), index=list(FIX_INDEX))

    def update_record(self, memory_id: str, **changes) -> FixRecord | None:
        """Change fields of a stored record (status, reason...) under its lock; None if there is none."""
        with record_lock(self.store, memory_id):
            existing = self.get(memory_id)
            if existing is None:
                return None
            record = existing.model_copy(update={**changes, "updated_at": utc_now()})
            record = validate_record(record.model_dump())
            self._write(record)
        return record

    # -- read and manage ------------------------------------------------------------------
    def get(self, memory_id: str) -> FixRecord | None:
        """The record, or None if there is none or it is damaged (then named in ``damaged``): a store of
        the same fix writes over a damaged row."""
        item = self.store.get(self.namespace, memory_id)
        return None if item is None else self.record_of(item)

    def iter_records(self, *, page_size: int = 500) -> Iterator[FixRecord]:
        """Every record of the namespace; damaged rows skipped (named in ``damaged``)."""
        offset = 0
        while True:
            items = self.store.search(self.namespace, limit=page_size, offset=offset)
            for item in items:
                if (record := self.record_of(item)) is not None:
                    yield record
            if len(items) < page_size:
                return
            offset += page_size

    def list_records(self, limit: int = 50, offset: int = 0, *, include_invalidated: bool = True) -> list[FixRecord]:
        """A page of records, newest first; damaged rows skipped (named in ``damaged``)."""
        items = self.store.search(self.namespace, limit=limit, offset=offset)
        records = [r for r in (self.record_of(i) for i in items) if r is not None]
        return records if include_invalidated else [r for r in records if r.status != "invalidated"]

    def count(self) -> int:
        return sum(1 for _ in self.iter_records())

    def delete(self, memory_id: str) -> bool:
        """Delete a record and its vectors, damaged or not. Returns False if there was no such record."""
        return delete_item(self.store, self.namespace, memory_id)


def merge_records(existing: FixRecord, new: FixRecord, *, keep_existing: bool = False) -> FixRecord:
    """One record for two of the same fix: ``new``'s content (``existing``'s with ``keep_existing``),
    the first session's fields and time, every confirmation once.

    A session counts once per kind, by its ``session_id`` (a resumed session that stores again adds
    nothing; a session's thread is its session id, except a learn's, whose session is the commit's
    ``learn-<commit id>``: the same commit confirmed by two learns at once is one confirmation, outside
    round 6 case 18); when the same session is on both sides as imported and as this installation's
    own, the own one is kept.
    The list is kept in time order and bounded: beyond the bound imported confirmations go first,
    then the oldest, each counted (``imported_dropped``, ``confirmations_dropped``), not kept.
    """
    older = existing if existing.timestamp <= new.timestamp else new
    seen: dict[tuple[str, str], Confirmation] = {}
    for c in sorted([*existing.confirmations, *new.confirmations], key=lambda c: c.confirmed_at):
        kept = seen.get((c.session_id, c.kind))
        if kept is None or (kept.imported and not c.imported):
            seen[(c.session_id, c.kind)] = c
    confirmations = sorted(seen.values(), key=lambda c: c.confirmed_at)
    dropped = existing.confirmations_dropped + new.confirmations_dropped
    imported_dropped = existing.imported_dropped + new.imported_dropped
    if len(confirmations) > MAX_CONFIRMATIONS:
        extra = len(confirmations) - MAX_CONFIRMATIONS
        imported = [c for c in confirmations if c.imported][:extra]
        gone = {id(c) for c in imported}
        confirmations = [c for c in confirmations if id(c) not in gone]
        imported_dropped += len(imported)
        if len(confirmations) > MAX_CONFIRMATIONS:
            dropped += len(confirmations) - MAX_CONFIRMATIONS
            confirmations = confirmations[-MAX_CONFIRMATIONS:]
    # A status set by a human (invalidated) or by a later fix (superseded) stays: a new confirmation
    # does not silently revive a fix found wrong. With ``keep_existing`` (an import into a record
    # this installation confirmed) the existing status stays whatever the import says.
    status_from = existing if keep_existing or existing.status != "active" else new
    base = existing if keep_existing else new
    return base.model_copy(update={
        "memory_id": existing.memory_id, "confirmations": confirmations,
        "confirmations_dropped": min(dropped, MAX_DROPPED), "imported_dropped": min(imported_dropped, MAX_DROPPED),
        "timestamp": older.timestamp, "session_id": older.session_id, "thread_id": older.thread_id,
        "outcome": older.outcome, "model": older.model,
        "project": older.project,  # the folder it was first stored from (clones of one repository: one record)
        "updated_at": max(existing.updated_at, new.updated_at),
        "status": status_from.status, "status_reason": status_from.status_reason,
        "superseded_by": status_from.superseded_by,
        # A replay or an import stores no diagnosis: the cause the fixing session stated stays.
        "diagnosis": base.diagnosis or (new if keep_existing else existing).diagnosis,
        "learned_from": base.learned_from or (new if keep_existing else existing).learned_from,
    })

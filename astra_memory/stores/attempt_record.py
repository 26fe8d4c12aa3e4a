"""The attempt record: a change a session tested that did NOT fix the bug, kept apart from fixes.

An attempt is evidence of what does not work, never of what does: it lives in its own namespace
(``attempts_namespace``), is never returned by a fix search, never replayed, never counted as a
confirmation, and every rendering of it says ``did not pass``. It names the failure it was tried on
(project and the failing test ids, ``failure_key``), the change (the diff byte for byte, and each
file's sha256 before and after, which is what the repetition gate compares), and what the tests
said (the exact outcome string, the tests still failing and those newly failing).

The same change tried again on the same failure is the same record (``attempt_id_for``): a
second session that repeats it adds itself to ``sessions`` instead of a record.

An attempt failed in a state: the test machinery, configuration and other files it ran against
(testrun/tested_state.py). ``failed_in`` keeps the digest of each state it failed in; the
repetition gate refuses the change only in one of them. A record written before states were kept
has none: its state is unknown and it never refuses a change (it is still shown).
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Annotated, Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)

from astra_memory.errors import MemoryValidationError
from astra_memory.redact import scrub, scrub_data
from astra_memory.stores.record import StoredRecord, canonical_uuid, validated
from astra_memory.testrun.same_ids import searched_text
from astra_memory.testrun.symptoms import MAX_SYMPTOM_CHARS

KIND = "attempt"  # the label every rendering carries (CLI, JSON, the model's brief, Studio updates)
ATTEMPT_ID_NAMESPACE = uuid.UUID("a77e3b70-9c1d-5e2f-8b4a-0d1dfa11ed00")
# How the change ended: its tests failed in the workspace (test), passed there but not in the fresh
# copy (confirm), or passed both but special-cased the test runner and was not stored (store).
AttemptEnd = Literal["tests_failed", "not_confirmed", "not_stored"]
AttemptStatus = Literal["active", "linked", "invalidated"]
MAX_SESSIONS = 50  # sessions that tried the same change; beyond it only the count grows
MAX_DROPPED = 1_000_000
MAX_TESTS = 50
MAX_STATES = 20  # states one change failed in; beyond it the oldest go


def failure_tests(failing_tests: list[str]) -> list[str]:
    """The failing test ids an attempt keeps, and the ones its failure is keyed on: each once, as
    stored (stripped, scrubbed), sorted, the first ``MAX_TESTS``. One list for both, so that a record
    of a failure with more tests than it keeps still has the id its content gives (`memory import`
    recomputes it)."""
    return sorted({scrub(t.strip()) for t in failing_tests if t.strip()})[:MAX_TESTS]


def failure_key(project: str, failing_tests: list[str], project_id: str = "") -> str:
    """The failure an attempt was tried on: the project and its failing test ids (``failure_tests``),
    order-free. Over the scrubbed text, as stored (a test id holding a secret gives the same key
    before and after). The project is its ``project_id`` (workspace/identity.py), never its folder
    name; a record from before ids were kept (none) keeps its key over the name, which no session
    gives any more: another project's attempt, never a gate on this one's edits."""
    who = f"project_id\x1e{scrub(project_id.strip())}" if project_id.strip() else scrub(project.strip())
    text = "\x1f".join([who, *failure_tests(failing_tests)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def attempt_id_for(key: str, file_states: dict[str, list[str]]) -> str:
    """uuid5 over the failure and the resulting files (path, sha256 before, sha256 after); paths
    scrubbed, as stored."""
    change = "\x1e".join(f"{p}\x1d{b}\x1d{a}" for p, (b, a) in sorted(
        (scrub(path), states) for path, states in file_states.items()))
    return str(uuid.uuid5(ATTEMPT_ID_NAMESPACE, f"v1\x1f{key}\x1f{change}"))


class AttemptSession(BaseModel):
    """One session that tried this change, and what its tests said."""

    model_config = ConfigDict(extra="forbid")

    session_id: str = Field(min_length=1, max_length=200)
    model: str = Field(default="", max_length=200)
    outcome: str = Field(min_length=1, max_length=2_000, description="that run's exact outcome string")
    tried_at: AwareDatetime


Sha = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]


class AttemptRecord(StoredRecord):
    """A tested change that did not pass. Every string is scrubbed of secrets; the diff is byte for byte."""

    model_config = ConfigDict(extra="forbid")

    attempt_id: str = Field(min_length=36, max_length=36)
    kind: Literal["attempt"] = KIND
    project: str = Field(default="", max_length=200)  # the folder's name, shown
    project_id: str = Field(default="", max_length=200)  # who the project is: part of failure_key
    failure_key: str = Field(min_length=32, max_length=32, pattern=r"^[0-9a-f]{32}$")
    failing_tests: list[Annotated[str, StringConstraints(max_length=500)]] = Field(max_length=MAX_TESTS)
    symptom: str = Field(min_length=1, max_length=MAX_SYMPTOM_CHARS)
    error_type: str = Field(min_length=1, max_length=200)
    diff: str = Field(min_length=1, max_length=100_000, description="the change tried, as unified diff")
    file_states: dict[str, Annotated[list[Sha], Field(min_length=2, max_length=2)]] = Field(
        min_length=1, max_length=50, description="path -> [sha256 before the session, sha256 tested]")
    end: AttemptEnd
    outcome: str = Field(min_length=1, max_length=2_000, description="what the tests said, exactly")
    still_failing: list[Annotated[str, StringConstraints(max_length=500)]] = Field(default_factory=list,
                                                                                   max_length=MAX_TESTS)
    newly_failing: list[Annotated[str, StringConstraints(max_length=500)]] = Field(default_factory=list,
                                                                                   max_length=MAX_TESTS)
    sessions: list[AttemptSession] = Field(min_length=1, max_length=MAX_SESSIONS)
    # the digest of each state it failed in (testrun/tested_state.py), oldest first; none: unknown
    failed_in: list[Sha] = Field(default_factory=list, max_length=MAX_STATES)
    sessions_dropped: int = Field(default=0, ge=0, le=MAX_DROPPED)
    first_tried: AwareDatetime
    last_tried: AwareDatetime
    status: AttemptStatus = "active"
    linked_fix: str | None = Field(default=None, max_length=36, description="the fix that later worked")
    # Came in through `memory import`: shown (labelled), never a reason to refuse an edit (a file must not
    # be able to block the right fix by claiming it failed).
    imported: bool = False

    @model_validator(mode="before")
    @classmethod
    def _scrubbed(cls, value: Any) -> Any:
        return scrub_data(value) if isinstance(value, dict) else value

    @model_validator(mode="after")
    def _ids(self) -> "AttemptRecord":
        canonical_uuid(self.attempt_id, "attempt_id")
        if self.linked_fix is not None:
            canonical_uuid(self.linked_fix, "linked_fix")
        if any(not p.strip() or len(p) > 500 for p in self.file_states):
            raise ValueError("every file path must be 1-500 characters")
        return self

    @property
    def times_tried(self) -> int:
        return len(self.sessions) + self.sessions_dropped

    @property
    def embed_text(self) -> str:
        """What gets embedded: the symptom (what a later search is made of) and where it was tried."""
        return f"{searched_text(self.symptom)}\nTried on: {' '.join(self.failing_tests[:10])}"


def checked_attempt_id(record: AttemptRecord) -> AttemptRecord:
    """The record if its ids are its content's (failure key and attempt id recomputed); else
    MemoryValidationError: an id is never taken from a file."""
    key = failure_key(record.project, record.failing_tests, record.project_id)
    expected = attempt_id_for(key, record.file_states)
    if record.failure_key != key or record.attempt_id != expected:
        raise MemoryValidationError(f"attempt_id {record.attempt_id} is not this attempt's id: its content "
                                    f"(project id, failing tests, files) gives {expected} (refused)")
    return record


def validate_attempt(data: dict[str, Any]) -> AttemptRecord:
    """Build an attempt record or raise MemoryValidationError naming every field that is wrong."""
    return validated(AttemptRecord, data, "attempt record")


def attempts_namespace(fix_namespace: tuple[str, ...]) -> tuple[str, ...]:
    """Where a fix namespace's attempts live: under neither that namespace nor any other's prefix, so a
    fix search (which searches by prefix) can never return an attempt."""
    return ("astra-attempts", *fix_namespace)

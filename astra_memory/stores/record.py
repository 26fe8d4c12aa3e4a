"""The fix record: what a confirmed fix looks like in memory, validated on the way in."""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from datetime import datetime, timezone
from typing import Annotated, Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StringConstraints,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from astra_memory.errors import MemoryValidationError
from astra_memory.redact import REDACTED, scrub, scrub_data
from astra_memory.stores.mechanism import CAUSE_FIELD, mechanism_text
from astra_memory.testrun.same_ids import searched_text
from astra_memory.testrun.symptoms import MAX_SYMPTOM_CHARS
from astra_memory.workspace.diffs import diff_problem, lone_cr_files, normalized_diff

# 2: one record per fix (id over project, error type, normalised diff) with its confirmations,
# and a status (active / invalidated / superseded). Version-1 records read as version 2 with one
# confirmation built from their own fields; `memory migrate` merges their duplicates.
SCHEMA_VERSION = 2
RecordStatus = Literal["active", "invalidated", "superseded"]
ConfirmationKind = Literal["fix", "replay"]
# A fixed namespace so that the same fix gets the same id on every machine.
MEMORY_ID_NAMESPACE = uuid.UUID("4b0c1d8e-6f1a-5c3e-9a57-a57a0c0de0e1")
MAX_DROPPED = 1_000_000  # a counter of confirmations beyond the kept list; anything larger is not a count


def canonical_uuid(value: Any, what: str = "memory_id") -> str:
    """``value`` if it is a UUID in its canonical text form (36 lowercase hex-and-hyphen characters),
    else ValueError: ids name records (and, hashed, files); a free-form id is refused, never cleaned."""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a UUID string")
    try:
        parsed = uuid.UUID(value)
    except ValueError:
        raise ValueError(f"{what} must be a UUID (like 123e4567-e89b-12d3-a456-426614174000)") from None
    if str(parsed) != value:
        raise ValueError(f"{what} must be a UUID in its canonical form ({parsed})")
    return value


def memory_id_for(*, project: str, error_type: str, diff: str, fix_description: str = "",
                  file_paths: list[str] | None = None, project_id: str = "", named: bool = False) -> str:
    """uuid5 over what makes two confirmations the same fix: project, error type, normalised diff.

    The project is its ``project_id`` (workspace/identity.py: its repository) when the record has
    one, never its folder's name: the same fix stored from two clones of one repository in folders
    of other names is one record (outside round 6, case 22), and two folders of one name holding
    different repositories store two. A record without one (from before it was kept) has its id over
    the name, as it had. ``named``: the id records with a project id had before (over the name as
    well, ``legacy_memory_id_of``), which such a record keeps until ``memory migrate``.

    Another session confirming the same change (even at other line offsets) gets the same id, so
    its store adds a confirmation instead of a record. A record without a diff (imported, bench
    cases) has nothing to compare, so its fix description and files stand in for it.
    """
    change = normalized_diff(diff)
    if not change:
        change = "\x1e".join(["no-diff", " ".join(fix_description.split()), *sorted(file_paths or [])])
    who = project_id.strip()
    name = project.strip() if named or not who else ""
    key = "\x1f".join(["v2", name, error_type.strip(), change, *(["project_id", who] if who else [])])
    return str(uuid.uuid5(MEMORY_ID_NAMESPACE, key))


def memory_id_of(record: "FixRecord") -> str:
    """The version-2 id a record should have (migration of version-1 ids)."""
    return memory_id_for(project=record.project, error_type=record.error_type, diff=record.diff,
                         fix_description=record.fix_description, file_paths=record.file_paths,
                         project_id=record.project_id)


def legacy_memory_id_of(record: "FixRecord") -> str | None:
    """The id a record with a project id had before its id left the folder's name out (``memory_id_for``
    ``named``), or None when it has no other: such a record still opens under it (``content_problem``),
    a store of the same fix in the same folder adds to it (``FixMemory.store_fix_memory``), and
    ``memory migrate`` gives it its id (merging the clones' records of one fix)."""
    if not record.project_id.strip():
        return None
    named = memory_id_for(project=record.project, error_type=record.error_type, diff=record.diff,
                          fix_description=record.fix_description, file_paths=record.file_paths,
                          project_id=record.project_id, named=True)
    return None if named == memory_id_of(record) else named


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def scrubbing(info: ValidationInfo) -> bool:
    """Whether this validation scrubs strings: always, unless a read checks a stored value's shape
    only (``read_stored(..., scrub=False)``): scrubbing is nearly all of a record's validation time."""
    return bool((info.context or {}).get("scrub", True))


class Confirmation(BaseModel):
    """One session that confirmed this fix: by finding it (``fix``) or by replaying it (``replay``).

    ``project``: the name of the project that session worked on ("" in records from before it was
    kept: the record's own), shown only. ``project_id``: who that project is (workspace/identity.py);
    "" in confirmations from before it was kept: another project's, never this one's (stores/trust.py).
    ``imported``: it came in through ``memory import``, from another
    installation: kept and shown, never counted as evidence or as a reason to replay (stores/trust.py).
    """

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    session_id: str = Field(min_length=1, max_length=200)
    thread_id: str = Field(min_length=1, max_length=200)
    outcome: str = Field(min_length=1, max_length=500, description="that session's exact passing-test string")
    confirmed_at: AwareDatetime
    model: str = Field(default="", max_length=200)
    kind: ConfirmationKind = "fix"
    project: str = Field(default="", max_length=200)
    project_id: str = Field(default="", max_length=200)
    imported: StrictBool = False

    @field_validator("outcome")
    @classmethod
    def _scrubbed(cls, value: str, info: ValidationInfo) -> str:
        return scrub(value) if scrubbing(info) else value


class RecordDiagnosis(BaseModel):
    """The fixing session's diagnosis, as the model stated it before its first edit (``state_diagnosis``):
    kept with the fix so that a later session's diagnosis is matched against causes, not symptoms."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    error_type: str = Field(min_length=1, max_length=200)
    cause: str = Field(min_length=1, max_length=2_000, description="the cause, in a sentence")
    files: list[str] = Field(default_factory=list, max_length=50)


class LearnedFrom(BaseModel):
    """Where a learned fix came from (``astra-memory learn``, astra_memory/learn/): the commit of the
    project's own history whose tests failed at its parent and passed with its source change."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    commit: str = Field(pattern=r"^[0-9a-f]{40}([0-9a-f]{24})?$", description="the fix's commit id")
    parent: str = Field(pattern=r"^[0-9a-f]{40}([0-9a-f]{24})?$", description="the commit it was confirmed against")
    author_date: AwareDatetime
    repository: str = Field(min_length=1, max_length=200, description="the project's identity (workspace/identity.py)")
    tests: list[str] = Field(default_factory=list, max_length=200, description="the commit's tests that failed at its parent")


def diagnosis_text(error_type: str, cause: str) -> str:
    """``"<ErrorType>: <the cause>"``: the form a diagnosis is searched with (nodes/diagnosis_search.py)
    and a record's cause is matched in."""
    return f"{error_type.strip()}: {' '.join(cause.split())}"


def cause_text_of(value: dict[str, Any]) -> str:
    """A stored record's cause text, from its fields: its diagnosis; a record stored without one (by
    an earlier version, an import, a replay) has its error type and fix description instead."""
    diagnosis = value.get("diagnosis")
    if isinstance(diagnosis, dict) and diagnosis.get("cause"):
        return diagnosis_text(str(diagnosis.get("error_type") or value.get("error_type") or ""), str(diagnosis["cause"]))
    return diagnosis_text(str(value.get("error_type") or ""), str(value.get("fix_description") or ""))


# The sha256 of the stored diff, byte for byte, beside the record's fields: written with every fix
# record (``FixRecord.to_store_value``), checked on every read when present (``content_problem``),
# never read back into the record. The id covers the diff's changed lines with whitespace squashed, not
# its context, line numbers or indentation; this hash covers every byte. Written since the version after
# the one that first read it (d55e566, which drops it on reading: a team upgrading one machine at a
# time still reads what this one writes); a record written before (no hash) is checked by its id alone.
DIFF_HASH_FIELD = "diff_sha256"
DERIVED_FIELDS = ("embed_text", CAUSE_FIELD, DIFF_HASH_FIELD)  # written beside a record's fields, never read back
MAX_CONFIRMATIONS = 1_000  # a record's list is bounded; the count beyond it is kept in `confirmations_dropped`


class StoredRecord(BaseModel):
    """A record as a store value: its fields, plus the text the store embeds (``embed_text``)."""

    @property
    def embed_text(self) -> str:
        raise NotImplementedError

    def to_store_value(self) -> dict[str, Any]:
        value = self.model_dump(mode="json")
        value["embed_text"] = self.embed_text
        return value

    @classmethod
    def from_store_value(cls, value: dict[str, Any], *, scrub: bool = True):
        return cls.model_validate({k: v for k, v in value.items() if k != "embed_text"}, context={"scrub": scrub})


def problems(exc: ValidationError) -> str:
    """Every wrong field of a pydantic error, named: ``field.sub: message; ...``."""
    return "; ".join(f"{'.'.join(str(p) for p in err['loc']) or 'record'}: {err['msg']}" for err in exc.errors())


SCRUBBED_DIFF = ("not replayable: the confirmed diff held text that looks like a secret, and the stored diff "
                 f"has {REDACTED} in its place; replaying it would write that placeholder into the code")
SCRUBBED_BEFORE = (f"not replayable: the stored diff holds {REDACTED} (a secret scrubbed from it, or text that "
                   "cannot be told from one); replaying it could write that placeholder into the code")


def lone_cr_refusal(diff: str) -> str:
    """Why a diff that brings a lone carriage return into a file is never replayed, or "" (diffs.lone_cr_files)."""
    files = lone_cr_files(diff)
    if not files:
        return ""
    return (f"not replayable: the diff brings a carriage return with no line feed into {', '.join(files[:3])[:200]}; "
            "Python reads it as a line break that the diff does not show, and replay refuses such an edit")


VERSION_ONE = ("not replayable: a version-1 record, whose id is not over its content, so a diff changed in "
               "memory could not be told; `astra-memory memory migrate` gives it its content id")


class FixRecord(StoredRecord):
    """One confirmed fix. Every string field (ids, paths, model name included) is scrubbed of secrets."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    memory_id: str = Field(min_length=36, max_length=36, description="a UUID (uuid5 over the fix, memory_id_for)")
    symptom: str = Field(min_length=1, max_length=MAX_SYMPTOM_CHARS, description="the failure signature the agent saw")
    error_type: str = Field(min_length=1, max_length=200)
    file_paths: list[str] = Field(min_length=1, max_length=50)
    fix_description: str = Field(min_length=1, max_length=4_000)
    # Byte for byte (never stripped: a closing blank context line is part of the hunk).
    diff: Annotated[str, StringConstraints(strip_whitespace=False)] = Field(
        default="", max_length=100_000, description="unified diff of the confirmed edit")
    outcome: str = Field(min_length=1, max_length=500, description="the exact passing-test string")
    timestamp: AwareDatetime = Field(description="when the fix was first confirmed")
    updated_at: AwareDatetime
    session_id: str = Field(min_length=1, max_length=200)
    thread_id: str = Field(min_length=1, max_length=200)
    project: str = Field(default="", max_length=200, description="the project's name, shown only")
    # Who the project is (workspace/identity.py): what trust, recurrence, ranking and supersession
    # compare. "" in records from before it was kept: another project's fix, wherever it is read.
    project_id: str = Field(default="", max_length=200)
    model: str = Field(default="", max_length=200, description="which model produced the fix")
    schema_version: int = Field(default=SCHEMA_VERSION, ge=1, le=SCHEMA_VERSION)
    confirmations: list[Confirmation] = Field(default_factory=list, max_length=MAX_CONFIRMATIONS,
                                              description="every session that confirmed or replayed this fix")
    confirmations_dropped: int = Field(default=0, ge=0, le=MAX_DROPPED,
                                       description="this installation's confirmations beyond the kept list")
    imported_dropped: int = Field(default=0, ge=0, le=MAX_DROPPED,
                                  description="imported confirmations not kept (counted, never evidence)")
    status: RecordStatus = "active"
    status_reason: str = Field(default="", max_length=2_000)
    superseded_by: str | None = Field(default=None, max_length=36)
    # Optional and additive (no schema version change): records before it, imported ones and replays
    # have none, and a record without it is stored without the key, so earlier versions still read it.
    diagnosis: RecordDiagnosis | None = Field(default=None, description="the fixing session's diagnosis")
    # Optional and additive too: why this record's diff is never applied (None: it may be). A diff
    # that had to be scrubbed of a secret is not the diff that was confirmed: replaying it would
    # write ``[REDACTED]`` into the code (``replay_refusal``).
    not_replayable: str | None = Field(default=None, max_length=500,
                                       description="why the stored diff is never replayed (scrubbed, a lone CR)")
    # Optional and additive too: a fix learned from the project's git history (``astra-memory learn``),
    # with its commit. A version that does not know the key refuses the record (a damaged row to it).
    learned_from: LearnedFrom | None = Field(default=None, description="the commit a learned fix came from")

    @field_validator("memory_id")
    @classmethod
    def _memory_id_is_a_uuid(cls, value: str) -> str:
        return canonical_uuid(value)

    @field_validator("superseded_by")
    @classmethod
    def _superseded_by_is_a_uuid(cls, value: str | None) -> str | None:
        return None if value is None else canonical_uuid(value, "superseded_by")

    @model_validator(mode="before")
    @classmethod
    def _version_one_has_one_confirmation(cls, data: Any) -> Any:
        """A version-1 record (no confirmations) was confirmed once, by its own session."""
        if isinstance(data, dict) and not data.get("confirmations") and data.get("session_id"):
            data = {**data, "confirmations": [{
                "session_id": data["session_id"], "thread_id": data.get("thread_id") or data["session_id"],
                "outcome": data.get("outcome") or "", "confirmed_at": data.get("timestamp"),
                "model": data.get("model") or "", "kind": "fix",
                **({"project_id": data["project_id"]} if data.get("project_id") else {})}]}
        return data

    @property
    def replays(self) -> int:
        """Replays confirmed by this installation (imported ones are not counted)."""
        return sum(1 for c in self.confirmations if c.kind == "replay" and not c.imported)

    @property
    def times_confirmed(self) -> int:
        """Every confirmation the record knows of, imported ones included (``memory list``)."""
        return len(self.confirmations) + self.confirmations_dropped + self.imported_dropped

    @property
    def local_confirmations(self) -> list[Confirmation]:
        """The confirmations this installation's own sessions made (the only evidence there is)."""
        return [c for c in self.confirmations if not c.imported]

    @property
    def times_confirmed_here(self) -> int:
        return len(self.local_confirmations) + self.confirmations_dropped

    @property
    def times_imported(self) -> int:
        return len(self.confirmations) - len(self.local_confirmations) + self.imported_dropped

    @property
    def confirmed_here(self) -> bool:
        """A session of this installation confirmed (or replayed and confirmed) this fix."""
        return bool(self.local_confirmations)

    @property
    def projects_confirmed_here(self) -> dict[str, str]:
        """``{project_id: name}`` of the projects whose sessions here confirmed this fix, in
        first-confirmed order. A confirmation from before project ids were kept counts for none."""
        return {c.project_id: c.project or self.project
                for c in self.local_confirmations if c.project_id}

    @field_validator("file_paths", mode="before")
    @classmethod
    def _paths_are_a_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            raise ValueError("file_paths must be a list of paths, not one string")
        return value

    @field_validator("file_paths")
    @classmethod
    def _paths_not_empty(cls, value: list[str]) -> list[str]:
        cleaned = [p.strip() for p in value]
        if any(not p or len(p) > 500 for p in cleaned):
            raise ValueError("every file path must be 1-500 characters")
        return cleaned

    @model_validator(mode="before")
    @classmethod
    def _scrubbed(cls, value: Any, info: ValidationInfo) -> Any:
        if not (isinstance(value, dict) and scrubbing(info)):
            return value
        diff = value.get("diff")
        if isinstance(diff, str) and not value.get("not_replayable") and scrub(diff) != diff:
            value = {**value, "not_replayable": SCRUBBED_DIFF}  # an import, a store given a raw diff
        elif isinstance(diff, str) and not value.get("not_replayable") and (lone_cr := lone_cr_refusal(diff)):
            value = {**value, "not_replayable": lone_cr}  # a learned commit, an import: replay would refuse it
        return scrub_data(value)

    @property
    def replay_refusal(self) -> str:
        """Why replay never applies this record's diff, or "": the reason it was stored with, or, for
        a record stored before there was one, a ``[REDACTED]`` in its diff (a scrubbed secret cannot
        be told from that text, so such a diff is never applied) or a lone carriage return it brings into
        a file (``lone_cr_refusal``); a version-1 record's id is not over
        its content (``content_problem`` cannot check it), so it is never applied before ``memory migrate``."""
        if self.not_replayable:
            return self.not_replayable
        if self.schema_version < SCHEMA_VERSION:
            return VERSION_ONE
        return SCRUBBED_BEFORE if REDACTED in self.diff else lone_cr_refusal(self.diff)

    @property
    def embed_text(self) -> str:
        """What gets embedded: the symptom (without its failing test ids: testrun/same_ids.py) and the fix
        together (queries are symptoms)."""
        return f"{searched_text(self.symptom)}\nFix: {self.fix_description}"

    @property
    def cause_text(self) -> str:
        """What a diagnosis is matched with (stores/memory.py): ``"<ErrorType>: <cause>"`` from the
        record's diagnosis, or its error type and fix description when it has none."""
        return cause_text_of(self.model_dump(include={"diagnosis", "error_type", "fix_description"}))

    @property
    def mechanism_text(self) -> str:
        """The cause without the project's names (stores/mechanism.py): the second field the store
        embeds, which a diagnosis search matches."""
        return mechanism_text(self.cause_text)

    def to_store_value(self) -> dict[str, Any]:
        value = self.model_dump(mode="json")
        for optional in ("diagnosis", "not_replayable", "learned_from"):  # absent when unset: earlier versions read it
            if value.get(optional) is None:
                value.pop(optional, None)
        for part in (value, *(value.get("confirmations") or [])):  # stored without an empty id: as before
            if not part.get("project_id"):
                part.pop("project_id", None)
        value["embed_text"] = self.embed_text
        value[CAUSE_FIELD] = self.mechanism_text  # what a diagnosis is matched with: the cause without names
        value[DIFF_HASH_FIELD] = diff_digest(value["diff"])  # every byte of the diff as stored: content_problem
        return value

    @classmethod
    def from_store_value(cls, value: dict[str, Any], *, scrub: bool = True) -> "FixRecord":
        return cls.model_validate({k: v for k, v in value.items() if k not in DERIVED_FIELDS},
                                  context={"scrub": scrub})


def diff_digest(diff: str) -> str:
    """The sha256 of a diff's text, byte for byte (UTF-8)."""
    return hashlib.sha256(diff.encode("utf-8", "surrogatepass")).hexdigest()


def content_problem(key: str, value: dict[str, Any]) -> str | None:
    """Why a stored fix record is not the record that was stored under ``key``, or None: the one check
    every read of a fix goes through (``FixMemory.record_of``), on the value as stored (before any
    scrubbing), once its shape is valid.

    - it names itself by its key (``memory_id``);
    - its diff is byte for byte the one written, when its value holds its hash (``diff_sha256``,
      ``DIFF_HASH_FIELD``: written with every record since it was added); a record written before
      holds none and is checked by its id alone;
    - a version-2 record's content (project, error type, normalised diff: ``memory_id_for``) still
      gives its id, as ``memory import`` checks (stores/transfer.py ``checked_id``); a record with a
      project id stored before its id left the folder's name out may give that id instead
      (``legacy_memory_id_of``). A version-1 id was
      over the session, not the content: such a record is never replayed (``replay_refusal``).

    A row changed in the database (a diff given another line, id kept) fails it and is damaged:
    skipped, named, deletable. Not covered: a row written whole with its id and hash recomputed (both
    are over public content: a check, not a signature)."""
    memory_id = value.get("memory_id")
    if memory_id != key:
        return f"it is stored under the id {key} but names itself {memory_id}"
    diff = value.get("diff") or ""
    recorded = value.get(DIFF_HASH_FIELD)
    if recorded is not None and recorded != diff_digest(diff):
        return (f"its diff is not the diff it was stored with (the stored {DIFF_HASH_FIELD} is {recorded}, the diff's "
                f"is {diff_digest(diff)}): changed after it was stored")
    if int(value.get("schema_version") or SCHEMA_VERSION) < SCHEMA_VERSION:
        return None
    content = {"project": str(value.get("project") or ""), "error_type": str(value.get("error_type") or ""),
               "diff": diff, "fix_description": str(value.get("fix_description") or ""),
               "file_paths": [str(p).strip() for p in value.get("file_paths") or []],
               "project_id": str(value.get("project_id") or "")}
    expected = memory_id_for(**content)
    if expected != memory_id and (not content["project_id"] or memory_id_for(**content, named=True) != memory_id):
        return (f"its content (project, error type, diff) gives the id {expected}, not {memory_id}: changed after it "
                f"was stored")
    return None


def check_diff(record: FixRecord) -> FixRecord:
    """The record, if its diff parses (a diff that does not could never be replayed); else
    MemoryValidationError. Checked before a fix is stored and at ``memory import``."""
    problem = diff_problem(record.diff)
    if problem is not None:
        raise MemoryValidationError(f"invalid fix record: diff: {problem}")
    return record


def validated(model: type, data: dict[str, Any], what: str):
    """``model`` built from ``data``, or MemoryValidationError naming every field that is wrong."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise MemoryValidationError(f"invalid {what}: {problems(exc)}") from None


def validate_record(data: dict[str, Any]) -> FixRecord:
    """Build a record or raise MemoryValidationError naming every field that is wrong."""
    return validated(FixRecord, data, "fix record")


MAX_PROBLEM_CHARS = 600
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class UnreadableValue(str):
    """What a store's reader returns for a stored value that is not JSON at all (a row cut off mid-value,
    its SQLite structure intact): the text says why, and ``read_stored`` names the row damaged."""


def jsonb_value(content: Any) -> Any:
    """PostgresStore's reader of a stored value psycopg did not decode to an object (its ``deserializer``:
    backends/postgres/store.py ``make_store``). LangGraph parses such a value as JSON text, so one row whose
    ``jsonb`` is a string (JSON cut off mid-value can only be stored so) or a list raised and stopped every
    list, search and delete. Now JSON text is parsed as LangGraph does, and what is no JSON object comes
    back as it is, or as an ``UnreadableValue`` when it is no JSON either: ``read_stored`` names the row
    damaged (skipped, deletable)."""
    if isinstance(content, (str, bytes, bytearray, memoryview)):
        try:
            return json.loads(bytes(content) if not isinstance(content, str) else content)
        except (ValueError, UnicodeDecodeError) as exc:
            return UnreadableValue(f"the stored value is not a JSON object (a text that is not JSON: {exc})")
    return content


def read_stored(model: type, value: Any, what: str, *, shape_only: bool = False):
    """``model`` read from a stored value, or MemoryValidationError saying what is wrong with it (a row
    edited by hand, a field only a newer version knows). The message is safe to show: the fields and
    what is wrong with each (a key of the stored value may be among them), scrubbed, control
    characters escaped, bounded. ``shape_only``: validated without scrubbing its strings (nearly all
    the time a read takes): a search checks every candidate so, and reads in full the few it delivers."""
    if isinstance(value, UnreadableValue):
        problem = str(value)
    elif not isinstance(value, dict):
        problem = f"the stored value is a {type(value).__name__}, not an object"
    else:
        try:
            return model.from_store_value(value, scrub=not shape_only)
        except ValidationError as exc:
            problem = problems(exc)
        except (MemoryValidationError, TypeError, ValueError) as exc:
            problem = str(exc)
    raise MemoryValidationError(safe_problem(f"invalid {what}: {problem}"))


def safe_problem(text: str) -> str:
    """A problem with a stored value as it may be shown: scrubbed, control characters escaped, bounded."""
    said = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", scrub(text))
    return said if len(said) <= MAX_PROBLEM_CHARS else said[:MAX_PROBLEM_CHARS] + " ..."

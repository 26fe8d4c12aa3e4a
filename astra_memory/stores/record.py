"""The fix record: what a confirmed fix looks like in memory, validated on the way in."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from typing import Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from astra_memory.errors import MemoryValidationError
from astra_memory.redact import scrub, scrub_data
from astra_memory.workspace.diffs import normalized_diff

# 2: one record per fix (id over project, error type, normalised diff) with its confirmations,
# and a status (active / invalidated / superseded). Version-1 records read as version 2 with one
# confirmation built from their own fields; `memory migrate` merges their duplicates.
SCHEMA_VERSION = 2
RecordStatus = Literal["active", "invalidated", "superseded"]
ConfirmationKind = Literal["fix", "replay"]
# A fixed namespace so that the same fix gets the same id on every machine.
MEMORY_ID_NAMESPACE = uuid.UUID("4b0c1d8e-6f1a-5c3e-9a57-a57a0c0de0e1")


def memory_id_for(*, project: str, error_type: str, diff: str, fix_description: str = "",
                  file_paths: list[str] | None = None) -> str:
    """uuid5 over what makes two confirmations the same fix: project, error type, normalised diff.

    Another session confirming the same change (even at other line offsets) gets the same id, so
    its store adds a confirmation instead of a record. A record without a diff (imported, bench
    cases) has nothing to compare, so its fix description and files stand in for it.
    """
    change = normalized_diff(diff)
    if not change:
        change = "\x1e".join(["no-diff", " ".join(fix_description.split()), *sorted(file_paths or [])])
    key = "\x1f".join(["v2", project.strip(), error_type.strip(), change])
    return str(uuid.uuid5(MEMORY_ID_NAMESPACE, key))


def memory_id_of(record: "FixRecord") -> str:
    """The version-2 id a record should have (migration of version-1 ids)."""
    return memory_id_for(project=record.project, error_type=record.error_type, diff=record.diff,
                         fix_description=record.fix_description, file_paths=record.file_paths)


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class Confirmation(BaseModel):
    """One session that confirmed this fix: by finding it (``fix``) or by replaying it (``replay``)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    session_id: str = Field(min_length=1, max_length=200)
    thread_id: str = Field(min_length=1, max_length=200)
    outcome: str = Field(min_length=1, max_length=500, description="that session's exact passing-test string")
    confirmed_at: AwareDatetime
    model: str = Field(default="", max_length=200)
    kind: ConfirmationKind = "fix"

    @field_validator("outcome")
    @classmethod
    def _scrubbed(cls, value: str) -> str:
        return scrub(value)


MAX_CONFIRMATIONS = 1_000  # a record's list is bounded; the count beyond it is kept in `confirmations_dropped`


class FixRecord(BaseModel):
    """One confirmed fix. Every string field (ids, paths, model name included) is scrubbed of secrets."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    memory_id: str = Field(min_length=36, max_length=36)
    symptom: str = Field(min_length=1, max_length=4_000, description="the failure signature the agent saw")
    error_type: str = Field(min_length=1, max_length=200)
    file_paths: list[str] = Field(min_length=1, max_length=50)
    fix_description: str = Field(min_length=1, max_length=4_000)
    diff: str = Field(default="", max_length=100_000, description="unified diff of the confirmed edit")
    outcome: str = Field(min_length=1, max_length=500, description="the exact passing-test string")
    timestamp: AwareDatetime = Field(description="when the fix was first confirmed")
    updated_at: AwareDatetime
    session_id: str = Field(min_length=1, max_length=200)
    thread_id: str = Field(min_length=1, max_length=200)
    project: str = Field(default="", max_length=200)
    model: str = Field(default="", max_length=200, description="which model produced the fix")
    schema_version: int = SCHEMA_VERSION
    confirmations: list[Confirmation] = Field(default_factory=list, max_length=MAX_CONFIRMATIONS,
                                              description="every session that confirmed or replayed this fix")
    confirmations_dropped: int = 0
    status: RecordStatus = "active"
    status_reason: str = Field(default="", max_length=2_000)
    superseded_by: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _version_one_has_one_confirmation(cls, data: Any) -> Any:
        """A version-1 record (no confirmations) was confirmed once, by its own session."""
        if isinstance(data, dict) and not data.get("confirmations") and data.get("session_id"):
            data = {**data, "confirmations": [{
                "session_id": data["session_id"], "thread_id": data.get("thread_id") or data["session_id"],
                "outcome": data.get("outcome") or "", "confirmed_at": data.get("timestamp"),
                "model": data.get("model") or "", "kind": "fix"}]}
        return data

    @property
    def replays(self) -> int:
        return sum(1 for c in self.confirmations if c.kind == "replay")

    @property
    def times_confirmed(self) -> int:
        return len(self.confirmations) + self.confirmations_dropped

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
    def _scrubbed(cls, value: Any) -> Any:
        return scrub_data(value) if isinstance(value, dict) else value

    @property
    def embed_text(self) -> str:
        """What gets embedded: the symptom and the fix together (queries are symptoms)."""
        return f"{self.symptom}\nFix: {self.fix_description}"

    def to_store_value(self) -> dict[str, Any]:
        value = self.model_dump(mode="json")
        value["embed_text"] = self.embed_text
        return value

    @classmethod
    def from_store_value(cls, value: dict[str, Any]) -> "FixRecord":
        return cls.model_validate({k: v for k, v in value.items() if k != "embed_text"})


def validate_record(data: dict[str, Any]) -> FixRecord:
    """Build a record or raise MemoryValidationError naming every field that is wrong."""
    try:
        return FixRecord.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'record'}: {err['msg']}" for err in exc.errors()
        )
        raise MemoryValidationError(f"invalid fix record: {problems}") from None

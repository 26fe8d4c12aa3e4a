"""The fix record: what a confirmed fix looks like in memory, validated on the way in."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from typing import Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from astra_memory.errors import MemoryValidationError
from astra_memory.redact import scrub_data

SCHEMA_VERSION = 1
# A fixed namespace so that the same fix gets the same id on every machine.
MEMORY_ID_NAMESPACE = uuid.UUID("4b0c1d8e-6f1a-5c3e-9a57-a57a0c0de0e1")


def memory_id_for(*, session_id: str, fix_description: str, error_type: str, outcome: str,
                  file_paths: list[str], diff: str) -> str:
    """uuid5 over what makes two stores the same fix, so a repeated store is an upsert."""
    key = "\x1f".join([session_id, fix_description.strip(), error_type.strip(), outcome.strip(),
                       "\x1e".join(sorted(file_paths)), diff])
    return str(uuid.uuid5(MEMORY_ID_NAMESPACE, key))


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


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

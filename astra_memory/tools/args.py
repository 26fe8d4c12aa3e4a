"""The tools' arguments: strict pydantic models (``extra="forbid"``, strict types, bounded sizes).

The JSON schema sent to the model is derived from these (registry.py), and the same models
validate what comes back: a call that does not validate is never executed.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

ERROR_TYPE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def _error_type_name(value: str) -> str:
    """An error type is a name (``AssertionError``, ``pkg.errors.ParseError``): it is part of a stored
    fix's id and of the filter a search uses, and a model's text in it (a newline, a forged
    ``failing test ids:`` line) was stored as it came (outside round 9 case 10)."""
    if not ERROR_TYPE_NAME.fullmatch(value):
        raise ValueError("an error type is the exception's name, such as AssertionError or "
                         "pkg.errors.ParseError: one word, no spaces or newlines")
    return value


def error_type_field(description: str):
    """The ``error_type`` argument: a bounded string that is an exception's name."""
    return Annotated[str, Field(min_length=1, max_length=200, description=description),
                     AfterValidator(_error_type_name)]


class ToolArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ListFilesArgs(ToolArgs):
    path: str = Field(max_length=500, description="folder relative to the workspace root; '.' for the root")


class ReadFileArgs(ToolArgs):
    path: str = Field(min_length=1, max_length=500, description="file path relative to the workspace root")


class SearchCodeArgs(ToolArgs):
    pattern: str = Field(min_length=1, max_length=200, description="regular expression searched line by line")


class SearchMemoryArgs(ToolArgs):
    query: str = Field(min_length=1, max_length=4000, description="observed failure symptoms to search for")
    error_type: str | None = Field(max_length=200, description="exact error type to filter on, or null")
    top_k: int = Field(ge=1, le=10, description="how many matches to return (1-10)")


class ApplyEditArgs(ToolArgs):
    path: str = Field(min_length=1, max_length=500, description="file to edit, relative to the workspace root")
    old_text: str = Field(min_length=1, description="exact text to replace; must occur exactly once")
    new_text: str = Field(description="replacement text")


class FinishArgs(ToolArgs):
    fix_description: str = Field(min_length=1, max_length=4000,
                                 description="what was wrong and what the edit changed, in general terms")
    error_type: error_type_field("the error type the failing tests showed")

"""Strict schemas for the tools the model may call.

Each tool's arguments are a pydantic model with ``extra="forbid"``; the JSON schema sent to the
model is derived from it (every property required, ``additionalProperties: false``), and the same
model validates what comes back. A call that does not validate is never executed.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ListFilesArgs(_Args):
    path: str = Field(max_length=500, description="folder relative to the workspace root; '.' for the root")


class ReadFileArgs(_Args):
    path: str = Field(min_length=1, max_length=500, description="file path relative to the workspace root")


class SearchCodeArgs(_Args):
    pattern: str = Field(min_length=1, max_length=200, description="regular expression searched line by line")


class SearchMemoryArgs(_Args):
    query: str = Field(min_length=1, max_length=4000, description="observed failure symptoms to search for")
    error_type: str | None = Field(max_length=200, description="exact error type to filter on, or null")
    top_k: int = Field(ge=1, le=10, description="how many matches to return (1-10)")


class ApplyEditArgs(_Args):
    path: str = Field(min_length=1, max_length=500, description="file to edit, relative to the workspace root")
    old_text: str = Field(min_length=1, description="exact text to replace; must occur exactly once")
    new_text: str = Field(description="replacement text")


class FinishArgs(_Args):
    fix_description: str = Field(min_length=1, max_length=4000,
                                 description="what was wrong and what the edit changed, in general terms")
    error_type: str = Field(min_length=1, max_length=200, description="the error type the failing tests showed")


TOOLS: dict[str, tuple[type[_Args], str]] = {
    "list_files": (ListFilesArgs, "List files under a workspace folder."),
    "read_file": (ReadFileArgs, "Read a text file of the workspace."),
    "search_code": (SearchCodeArgs, "Search the workspace's text files for a regular expression."),
    "search_codebase_memory": (SearchMemoryArgs, "Search the memory of confirmed fixes from earlier sessions."),
    "apply_edit": (ApplyEditArgs, "Replace one exact, unique occurrence of old_text with new_text in a source file."),
    "finish": (FinishArgs, "End the investigation: the edits are done; the tests will be run to confirm the fix."),
}
READ_ONLY_TOOLS = frozenset({"list_files", "read_file", "search_code", "search_codebase_memory"})


class ToolCallError(ValueError):
    """A tool call that must not be executed; the message goes back to the model."""


def _strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema()
    properties = {}
    for name, prop in schema["properties"].items():
        # Length limits are checked locally on the way back; some strict-mode servers reject them.
        prop = {k: v for k, v in prop.items() if k not in ("title", "default", "minLength", "maxLength")}
        if "anyOf" in prop:  # Optional[str] -> ["string", "null"], as strict mode expects
            types = [p["type"] for p in prop.pop("anyOf")]
            prop["type"] = types
        properties[name] = prop
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def openai_tool_specs() -> list[dict[str, Any]]:
    """The tool list in OpenAI function format, strict."""
    return [
        {
            "type": "function",
            "function": {
                "name": name,
                "description": description,
                "parameters": _strict_schema(model),
                "strict": True,
            },
        }
        for name, (model, description) in TOOLS.items()
    ]


def validate_call(name: str, args: Any) -> _Args:
    """Parse a tool call's arguments, or raise ToolCallError saying exactly what is wrong."""
    if name not in TOOLS:
        raise ToolCallError(f"unknown tool {name!r}; available tools: {', '.join(TOOLS)}")
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except json.JSONDecodeError as exc:
            raise ToolCallError(f"arguments of {name} are not valid JSON: {exc.msg}") from None
    if not isinstance(args, dict):
        raise ToolCallError(f"arguments of {name} must be a JSON object")
    model = TOOLS[name][0]
    try:
        return model.model_validate(args)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'args'}: {e['msg']}" for e in exc.errors())
        raise ToolCallError(f"invalid arguments for {name}: {problems}") from None

"""The one registry of the tools offered to the model: name -> arguments, kind, description, handler.

Everything else is derived from it: the strict schemas sent to a live model (``openai_tool_specs``),
the tool list in the system prompt (``tool_lines``), how the router routes a call (by its
``kind``), and how the tools node runs a read-only call (its ``handler``). Adding a read-only
tool is one entry in ``TOOLS``.

Kinds: ``read`` tools run in the ``tools`` node and change nothing; ``diagnosis`` (the model states
its diagnosis) runs in the ``diagnosis_search`` node, which searches memory with it: the edge into
``edit`` requires its delivered result; the one ``edit`` tool runs in the ``edit`` node (journaled,
confined); ``finish`` ends the investigation and runs the tests in the ``test`` node.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any

from pydantic import Field, ValidationError

from astra_memory.stores.format import format_hits
from astra_memory.stores.memory import FixMemory
from astra_memory.tools.args import (
    ApplyEditArgs,
    FinishArgs,
    ListFilesArgs,
    ReadFileArgs,
    SearchCodeArgs,
    SearchMemoryArgs,
    ToolArgs,
    error_type_field,
)
from astra_memory.workspace.files import MAX_LIST_ENTRIES, Workspace


class ToolKind(str, Enum):
    READ = "read"
    DIAGNOSIS = "diagnosis"
    EDIT = "edit"
    FINISH = "finish"


@dataclass(frozen=True)
class ToolEnv:
    """What a read-only handler may use: the confined workspace and the fix memory."""

    workspace: Workspace
    memory: Callable[[], FixMemory]  # opened on demand: most tools never need it
    project_id: str | None = None  # the session's project (workspace/identity.py): its recurring fixes rank first


Handler = Callable[[Any, ToolEnv], str]


@dataclass(frozen=True)
class Tool:
    name: str
    args: type[ToolArgs]
    kind: ToolKind
    description: str
    handler: Handler | None = None  # read tools only; diagnosis, edit and finish are run by their own nodes
    quotes_result: bool = True  # its result is workspace text, quoted as one value (nodes/tools.py)


class DiagnosisArgs(ToolArgs):
    """``state_diagnosis``: what the model believes is wrong, before its first edit."""

    error_type: error_type_field("the error type the failing tests show, e.g. AssertionError")
    cause: str = Field(min_length=1, max_length=600,
                       description="the root cause in one sentence, in general terms (not this project's names only)")
    files: list[Annotated[str, Field(min_length=1, max_length=500)]] = Field(
        min_length=1, max_length=10, description="the source files the fix will change, relative to the workspace root")


class ToolCallError(ValueError):
    """A tool call that must not be executed; the message goes back to the model."""


def _list_files(args: ListFilesArgs, env: ToolEnv) -> str:
    found = env.workspace.list_files(args.path or ".")
    more = [f"[listing stopped at {MAX_LIST_ENTRIES} files; list a subfolder]"] if len(found) >= MAX_LIST_ENTRIES else []
    return "\n".join(found + more) or "(no files)"


def _read_file(args: ReadFileArgs, env: ToolEnv) -> str:
    return env.workspace.read_file(args.path)


def _search_code(args: SearchCodeArgs, env: ToolEnv) -> str:
    return "\n".join(env.workspace.search_code(args.pattern)) or "(no matches)"


def _search_memory(args: SearchMemoryArgs, env: ToolEnv) -> str:
    return format_hits(env.memory().search_codebase_memory(args.query, error_type=args.error_type, top_k=args.top_k,
                                                               project_id=env.project_id),
                       query=args.query, project_id=env.project_id)


TOOLS: dict[str, Tool] = {tool.name: tool for tool in (
    Tool("list_files", ListFilesArgs, ToolKind.READ, "List files under a workspace folder.", _list_files),
    Tool("read_file", ReadFileArgs, ToolKind.READ, "Read a text file of the workspace.", _read_file),
    Tool("search_code", SearchCodeArgs, ToolKind.READ,
         "Search the workspace's text files for a regular expression.", _search_code),
    Tool("search_codebase_memory", SearchMemoryArgs, ToolKind.READ,
         "Search the memory of confirmed fixes from earlier sessions.", _search_memory,
         quotes_result=False),  # format_hits quotes each stored value
    Tool("state_diagnosis", DiagnosisArgs, ToolKind.DIAGNOSIS,
         "Before your first edit: state your diagnosis (error type, the root cause in one sentence, the files "
         "to change). Memory is searched with it and the result returned; edits are refused until then."),
    Tool("apply_edit", ApplyEditArgs, ToolKind.EDIT,
         "Replace one exact, unique occurrence of old_text with new_text in a source file."),
    Tool("finish", FinishArgs, ToolKind.FINISH,
         "End the investigation: the edits are done; the tests will be run to confirm the fix."),
)}


def tool_kind(name: str) -> ToolKind | None:
    tool = TOOLS.get(name)
    return tool.kind if tool is not None else None


def tool_names(kind: ToolKind) -> list[str]:
    return [name for name, tool in TOOLS.items() if tool.kind is kind]


def tool_lines() -> str:
    """The tool list for the system prompt, one line per tool."""
    def signature(tool: Tool) -> str:
        return f"{tool.name}({', '.join(tool.args.model_fields)})"
    return "\n".join(f"  - [{tool.kind.value}] {signature(tool)}: {tool.description}" for tool in TOOLS.values())


# Length and size limits are checked locally on the way back (validate_call); some strict-mode
# servers reject them in a schema.
_LOCAL_ONLY = ("title", "default", "minLength", "maxLength", "minItems", "maxItems")


def _strict_property(prop: dict[str, Any]) -> dict[str, Any]:
    prop = {k: v for k, v in prop.items() if k not in _LOCAL_ONLY}
    if "anyOf" in prop:  # Optional[str] -> ["string", "null"], as strict mode expects
        prop["type"] = [p["type"] for p in prop.pop("anyOf")]
    if isinstance(prop.get("items"), dict):  # list[str]: the item schema too
        prop["items"] = _strict_property(prop["items"])
    return prop


def _strict_schema(model: type[ToolArgs]) -> dict[str, Any]:
    schema = model.model_json_schema()
    properties = {name: _strict_property(prop) for name, prop in schema["properties"].items()}
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def openai_tool_specs() -> list[dict[str, Any]]:
    """The tool list in OpenAI function format, strict."""
    return [{"type": "function", "function": {"name": tool.name, "description": tool.description,
                                              "parameters": _strict_schema(tool.args), "strict": True}}
            for tool in TOOLS.values()]


def validate_call(name: str, args: Any) -> ToolArgs:
    """Parse a tool call's arguments, or raise ToolCallError saying exactly what is wrong."""
    tool = TOOLS.get(name)
    if tool is None:
        raise ToolCallError(f"unknown tool {name!r}; available tools: {', '.join(TOOLS)}")
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except json.JSONDecodeError as exc:
            raise ToolCallError(f"arguments of {name} are not valid JSON: {exc.msg}") from None
    if not isinstance(args, dict):
        raise ToolCallError(f"arguments of {name} must be a JSON object")
    try:
        return tool.args.model_validate(args)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'args'}: {e['msg']}" for e in exc.errors())
        raise ToolCallError(f"invalid arguments for {name}: {problems}") from None

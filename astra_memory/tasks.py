"""A session's task: built for a bundled scenario or the user's own project, or completed from a
minimal input (LangGraph Studio, scripts) by the graph's first node, ``prepare``.

Two inputs are enough; everything else is filled in here::

    {"task": {"scenario": "alpha"}}
    {"task": {"workspace": "/abs/path/to/project", "test_command": "python -m pytest -q"}}

``protect`` adds read-only paths to the project's acceptance tests (``--protect`` on the command
line): ``{"task": {..., "protect": ["acceptance", "app/golden.json"]}}``, each a file or folder
inside the workspace (astra_memory/workspace/protected.py says what is protected without it).

Bad input is refused with a ``TaskInputError`` that names the field and the fix (a ``ValueError``,
so langgraph-api shows its message in Studio instead of "An internal error occurred").
"""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from astra_memory.context import Context, recorded_knobs
from astra_memory.errors import AstraError, ScenarioError, WorkspaceError
from astra_memory.models.live import is_live
from astra_memory.scenarios import Scenario, load_scenario
from astra_memory.settings import Settings
from astra_memory.state import Task
from astra_memory.testrun.manifest import command_program
from astra_memory.testrun.run import InterpreterError, project_environment
from astra_memory.workspace.identity import ProjectIdentity, project_identity, scenario_identity
from astra_memory.workspace.protected import checked_protect

SCENARIO_EXAMPLE = '{"task": {"scenario": "alpha"}}'
WORKSPACE_EXAMPLE = '{"task": {"workspace": "/abs/path/to/project", "test_command": "python -m pytest -q"}}'
INPUTS_HINT = f"start a bundled scenario with {SCENARIO_EXAMPLE}, or your own project with {WORKSPACE_EXAMPLE}"


class TaskInputError(AstraError):
    """The task given to the graph is missing a field or has a wrong one; the message names it."""


def _merged(declared: list[str], workspace: Path, protect: list[str] | None) -> list[str]:
    """The declared protected paths plus the user's ``protect`` (checked: existing, inside the workspace)."""
    return list(dict.fromkeys([*declared, *checked_protect(workspace, protect or [])]))


def scenario_task(scenario: Scenario, settings: Settings, thread_id: str, model: str = "scripted", *,
                  protect: list[str] | None = None) -> Task:
    """A task on a fresh copy of a bundled scenario, under the session's run directory.

    ``protect``: more paths of the scenario's project the agent may not edit (relative to it)."""
    run_dir = settings.run_dir(thread_id)
    workspace = scenario.copy_to(run_dir / "workspace").resolve()
    return Task(workspace=str(workspace), test_command=scenario.test_command, prompt=scenario.prompt,
                project=scenario.project, scenario=scenario.name, script=scenario.solution, model=model,
                protected=_merged(list(scenario.protected), workspace, protect), test_env=dict(scenario.env),
                run_dir=str(run_dir.resolve()), session_id=thread_id)


def workspace_task(workspace: Path, test_command: str, settings: Settings, thread_id: str, *,
                   prompt: str = "", model: str = "scripted", protected: list[str] | None = None,
                   protect: list[str] | None = None, python: str | None = None,
                   environ: Mapping[str, str] | None = None) -> Task:
    """A task on the user's own project, edited in place.

    Its tests run in the project's environment, as the user would run them in the invoking shell
    (``environ``, default ``os.environ``): its PATH and VIRTUAL_ENV, and ``python`` (the CLI's
    ``--python PATH``) first when given; else a workspace ``.venv/bin/python`` when no virtualenv is
    active (testrun/run.py ``project_environment``). The choice is kept in ``test_env`` and ``python``.

    ``protected`` replaces the declared protected paths (``tests`` by default); ``protect`` (the
    CLI's ``--protect PATH``, repeatable) adds to them: files or folders inside the workspace, relative
    to it (or absolute under it). Test files by name, the files of the tests that fail and pytest's
    configuration are protected either way (astra_memory/workspace/protected.py). A path that does
    not exist or leaves the workspace is refused with a WorkspaceError naming it, before anything runs.
    """
    workspace = Path(workspace).expanduser().resolve()
    if not workspace.exists():
        raise ScenarioError(f"workspace {workspace} does not exist; give the folder of the project to fix")
    if not workspace.is_dir():
        raise ScenarioError(f"workspace {workspace} is not a directory; give the folder of the project to fix")
    declared = _merged(protected if protected is not None else ["tests"], workspace, protect)
    try:
        test_env, interpreter, _ = project_environment(workspace, python, environ)
    except InterpreterError as exc:
        raise ScenarioError(str(exc)) from None
    run_dir = settings.run_dir(thread_id)
    run_dir.mkdir(parents=True, exist_ok=True)
    return Task(workspace=str(workspace), test_command=test_command,
                prompt=prompt or f"The tests (`{test_command}`) fail. Fix the source so that they pass.",
                project=workspace.name, scenario=None, script=None, model=model, protected=declared,
                test_env=test_env, python=interpreter, run_dir=str(run_dir.resolve()), session_id=thread_id)


def task_identity(task: Task, settings: Settings) -> ProjectIdentity:
    """Who the task's project is (workspace/identity.py): a bundled scenario's, else its folder's
    repository or kept id. The one place a task's ``project_id`` comes from."""
    if task.get("scenario"):
        return scenario_identity(task.get("project") or str(task["scenario"]))
    return project_identity(task["workspace"], settings.home)


def interpreter_note(task: Task) -> str | None:
    """Which Python a ``--workspace`` task's tests run on, and why (shown at prepare), or None."""
    if task.get("scenario") or not task.get("workspace"):
        return None
    python = task.get("python")
    if not python:
        named = command_program(task.get("test_command", ""))
        if named and Path(named).is_absolute():  # the command names its interpreter: PATH plays no part
            return f"tests run on {named}, as the test command names it"
        return "tests run on the python/pytest first on the PATH of the invoking shell"
    found = Path(python).parent.parent == Path(task["workspace"]) / ".venv"
    return f"tests run on {python} ({'the workspace .venv: no virtualenv was active' if found else 'given'})"


class TaskInput(BaseModel):
    """What a caller may put in ``task``. Empty strings (an untouched Studio form field) count as unset."""

    model_config = ConfigDict(extra="forbid")

    scenario: str | None = None
    workspace: str | None = None
    test_command: str | None = None
    prompt: str | None = None
    project: str | None = None  # a name to show; never who the project is (project_id)
    project_id: str | None = None  # accepted in a complete task, always computed again (task_identity)
    model: str | None = None
    protected: list[str] | None = None  # replaces the declared protected paths (``tests``)
    protect: list[str] | None = None  # adds to them (``--protect``): files or folders inside the workspace
    script: list[dict[str, Any]] | None = None
    test_env: dict[str, str] | None = None
    python: str | None = None  # the project's interpreter (``--python``): its folder first on the test PATH
    approve_edits: bool | None = None
    editor: Literal["client"] | None = None  # the calling agent edits (astra-memory mcp); its turns are the script
    # Filled in by the graph; accepted when a caller already built a complete task (the CLI, scripts).
    run_dir: str | None = None
    session_id: str | None = None
    knobs: dict[str, Any] | None = None
    state_version: int | None = None  # restamped by prepare

    @field_validator("*", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value


def _field_errors(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors():
        where = "task." + ".".join(str(p) for p in error["loc"]) if error["loc"] else "task"
        if error["type"] == "extra_forbidden":
            known = ", ".join(TaskInput.model_fields)
            parts.append(f"{where}: unknown field (the fields of a task are: {known})")
        else:
            parts.append(f"{where}: {error['msg']}")
    return "; ".join(parts)


def parse_task_input(raw: Any) -> TaskInput:
    if not isinstance(raw, dict) or not raw:
        raise TaskInputError(f"the input has no task: {INPUTS_HINT}")
    try:
        return TaskInput.model_validate(raw)
    except ValidationError as exc:
        raise TaskInputError(f"{_field_errors(exc)}. {INPUTS_HINT[0].upper()}{INPUTS_HINT[1:]}") from None


def _checked_workspace(raw: str) -> Path:
    path = Path(raw).expanduser()
    if not path.is_absolute():
        raise TaskInputError(f"task.workspace: {raw!r} is not an absolute path; give the absolute path of your "
                             "project's folder, e.g. /home/me/src/myproject")
    if not path.exists():
        raise TaskInputError(f"task.workspace: {raw} does not exist; give the absolute path of an existing "
                             "project folder (on the machine the graph runs on)")
    if not path.is_dir():
        raise TaskInputError(f"task.workspace: {raw} is not a folder; give the project's folder, not a file")
    return path.resolve()


def _checked_command(command: str | None) -> str:
    if not command:
        raise TaskInputError('task.test_command is missing: with task.workspace give the command that runs the '
                             'project\'s tests, e.g. "python -m pytest -q"')
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise TaskInputError(f"task.test_command: {command!r} cannot be split into words ({exc}); "
                             'e.g. "python -m pytest -q"') from None
    if not words:
        raise TaskInputError('task.test_command is empty; e.g. "python -m pytest -q"')
    return command


@contextmanager
def _protect_field() -> Iterator[None]:
    """A refused ``protect`` path (the only WorkspaceError building a task raises), named as the field."""
    try:
        yield
    except WorkspaceError as exc:
        raise TaskInputError(f"task.protect: {exc}") from None


def _fresh_copy_target(settings: Settings, thread_id: str) -> None:
    """A scenario copy left by a first step that was cut off before its checkpoint (a server
    restart): nothing ran on it, so it is copied again."""
    target = settings.run_dir(thread_id) / "workspace"
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)


def complete_task(raw: Any, *, thread_id: str | None, settings: Settings, context: Context) -> Task:
    """The full task for ``raw``: minimal inputs completed, complete ones checked, knobs recorded.

    ``approve_edits``: the task's own value, else the ``approve_edits`` knob, else on for the user's
    own project (edited in place) and off for a bundled scenario's fresh copy.
    """
    given = parse_task_input(raw)
    model = given.model or context.model or "scripted"
    if is_live(model) and context.ledger is None:
        raise TaskInputError(
            f"task.model: {model} is a live model, and live requests go through the cost guard's ledger, which "
            "this graph was not given: from a script, open the agent with session.open_agent() or pass "
            "Context(ledger=...); the graph LangGraph Studio serves (astra_memory/graph/studio.py) opens the CLI's")
    complete = bool(given.workspace and given.test_command and given.run_dir and given.session_id)
    if complete:
        task = Task(**given.model_dump(exclude_none=True, exclude={"protect"}))
        workspace = _checked_workspace(task["workspace"])
        if given.protect:
            with _protect_field():
                task["protected"] = _merged(task.get("protected") or ["tests"], workspace, given.protect)
    else:
        if not thread_id:
            raise TaskInputError("no thread id: run the graph with config={'configurable': {'thread_id': ...}}")
        if given.scenario and given.workspace:
            raise TaskInputError("task.scenario and task.workspace were both given: a bundled scenario runs on a "
                                 f"fresh copy of its own project, so give one of them: {INPUTS_HINT}")
        if given.scenario:
            try:
                scenario = load_scenario(given.scenario)
            except ScenarioError as exc:
                raise TaskInputError(f"task.scenario: {exc}") from None
            _fresh_copy_target(settings, thread_id)
            with _protect_field():
                task = scenario_task(scenario, settings, thread_id, model=model, protect=given.protect)
        elif given.workspace:
            workspace = _checked_workspace(given.workspace)
            with _protect_field():
                try:
                    task = workspace_task(workspace, _checked_command(given.test_command), settings, thread_id,
                                          prompt=given.prompt or "", model=model, protected=given.protected,
                                          protect=given.protect, python=given.python)
                except ScenarioError as exc:
                    raise TaskInputError(f"task.python: {exc}") from None
        else:
            raise TaskInputError(f"the task names no project: {INPUTS_HINT}")
        for name in ("prompt", "project", "script", "test_env", "test_command", "approve_edits"):  # the caller's wins
            value = getattr(given, name)
            if value is not None:
                task[name] = {**task.get("test_env", {}), **value} if name == "test_env" else value
        if given.session_id:
            task["session_id"] = given.session_id
    task["model"] = model
    task["project_id"] = task_identity(task, settings).project_id  # never the caller's word, nor a name
    if "knobs" not in task:
        task["knobs"] = recorded_knobs(replace(context, model=model))
    if "approve_edits" not in task:
        knob = context.approve_edits
        task["approve_edits"] = knob if knob is not None else not task.get("scenario")
    return task

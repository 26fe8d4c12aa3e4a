"""Everything that can be checked before a session starts, checked before it starts.

A session that starts can always finish or be resumed: nothing it could have known at the start
(a model that cannot be used, a workspace that is not there, a test command that cannot start)
is discovered half-way, leaving a thread `interrupted` for ever. ``check_session`` raises a
``ConfigurationError`` that names what to change; no thread is written before it passes.

What needs a running session is not here: whether the tests pass, fail or cannot run (observe
decides, ``testrun_env``), and whether a model is needed at all (with no model configured a session
may still end without one; investigate ends it ``needs_model`` when it would need one).
"""

from __future__ import annotations

from pathlib import Path

from astra_memory.context import Context
from astra_memory.errors import ConfigurationError
from astra_memory.models.live import is_live, probe_api_key
from astra_memory.models.live import preflight as live_preflight
from astra_memory.testrun.environment import command_problem, missing_workspace
from astra_memory.testrun.run import InterpreterError, project_environment


def check_workspace(workspace: str | Path, test_command: str, *, python: str | None = None) -> None:
    """The workspace is a directory and the test command's program can start there, on the PATH the
    project's tests get (the invoking shell's, ``python``'s folder first: testrun/run.project_environment)."""
    problem = missing_workspace(workspace)
    if problem is None:
        try:
            env = project_environment(workspace, python)[0]
        except InterpreterError as exc:
            raise ConfigurationError(str(exc)) from None
        problem = command_problem(test_command, workspace, env)
    if problem is not None:
        raise ConfigurationError(problem.message)


def check_model(model: str | None, context: Context, *, probe_key: bool = False) -> None:
    """A live model: cost approval, API key, known price, sane limits (and, with ``probe_key``, a key
    the server accepts: its model list, which is free). The scripted model needs nothing here."""
    if is_live(model):
        live_preflight(model, context)
        if probe_key:
            probe_api_key(context)


def check_session(model: str | None, context: Context, *, workspace: str | Path | None = None,
                  test_command: str | None = None, probe_key: bool = False, python: str | None = None) -> None:
    """All of the above, in the order a user would fix them."""
    if workspace is not None:
        check_workspace(workspace, test_command or "", python=python)
    check_model(model, context, probe_key=probe_key)

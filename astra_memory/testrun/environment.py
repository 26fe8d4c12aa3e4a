"""Tests that fail vs. tests that cannot run: read a test run and say whether it ran the tests at all.

A failing test is a bug to fix. A test command that could not run the tests (its interpreter lacks
pytest, the program is not found, pytest was given bad options or found no tests, a test module
imports a third-party package that is not installed, the workspace is gone) is not: editing the
project cannot fix it, and searching the memory of fixes with "No module named pytest" finds
nothing useful. ``cannot_run`` names the case and says what to install or change.

The rules are deliberately narrow. A run in which any test passed or failed ran the tests. A
missing module counts as the environment's only when it is neither part of the workspace (a
package or module at its top level or under ``src/``) nor of the standard library: a project
module that is missing, or a name that cannot be imported from a project module, is a bug in the
project. (A misspelt third-party import such as ``import reqeusts`` is read as "not installed";
the message then says to fix the import if it is wrong.)
"""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from astra_memory.testrun.manifest import command_program
from astra_memory.testrun.run import test_environment

# `python -m pytest` without pytest: "/usr/bin/python3: No module named pytest" (exit code 1).
_INTERPRETER_NO_MODULE = re.compile(r"^(?P<interp>\S*python[\w.]*): No module named (?P<module>[\w.]+)\s*$",
                                    re.MULTILINE)
# A test module or conftest that imports a package that is not installed (pytest's collection error).
_MODULE_NOT_FOUND = re.compile(r"ModuleNotFoundError: No module named '(?P<module>[\w.]+)'")
# Where pytest's traceback of a collection error was ("tests/test_time.py:9: in <module>").
_LOCATION = re.compile(r"^(?P<file>[^\s:]+\.py):(?P<line>\d+): in ", re.MULTILINE)
_CONFTEST = re.compile(r"ImportError while loading conftest '(?P<file>[^']+)'")
_FILE_LINE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')
_ERROR_LINE = re.compile(r"^E\s+(?P<text>\w+(Error|Exception)\b.*)$", re.MULTILINE)
# A shell the test command starts, on a program it cannot find: dash's "sh: 1: /x/bin/python: not found",
# bash's "bash: line 1: foo: command not found" or "...: No such file or directory".
_SHELL_NOT_FOUND = re.compile(r"^\S+: (?:line )?(?:\d+: )?(?P<program>[^:\n]+): (?:command )?not found\s*$"
                              r"|^\S+: (?:line )?(?:\d+: )?(?P<path>/[^:\n]+): No such file or directory\s*$",
                              re.MULTILINE)
PYTEST_USAGE_ERROR, PYTEST_NO_TESTS = 4, 5
NOT_EXECUTABLE, NOT_FOUND = 126, 127


@dataclass(frozen=True)
class CannotRun:
    """Why the tests could not run, and what to do about it."""

    kind: str  # missing_workspace, command_not_found, not_executable, missing_module, usage_error, no_tests
    message: str

    def reason(self) -> str:
        return f"the tests cannot run ({self.kind}): {self.message}"


def missing_workspace(workspace: str | Path) -> CannotRun | None:
    path = Path(workspace)
    if path.is_dir():
        return None
    what = "is not a directory" if path.exists() else "does not exist"
    return CannotRun("missing_workspace", f"the workspace {path} {what}; pass an existing project folder "
                                          "with --workspace")


def _in_workspace(module: str, workspace: Path) -> bool:
    top = module.split(".")[0]
    return any((root / top).is_dir() or (root / f"{top}.py").is_file() for root in (workspace, workspace / "src"))


def _third_party(module: str, workspace: Path) -> bool:
    top = module.split(".")[0]
    return top not in sys.stdlib_module_names and not _in_workspace(module, workspace)


def _not_installed_project(module: str, workspace: Path) -> bool:
    """The project's own package, under ``src/`` only, not importable: not installed for that interpreter."""
    return "." not in module and not (workspace / module).is_dir() and not (workspace / f"{module}.py").is_file() \
        and ((workspace / "src" / module).is_dir() or (workspace / "src" / f"{module}.py").is_file())


def _where(output: str, end: int) -> str:
    """The file and line of the last traceback entry before ``end`` (`` (tests/test_x.py:9)``), or ""."""
    found = list(_LOCATION.finditer(output, 0, end))
    return f" ({found[-1]['file']}:{found[-1]['line']})" if found else ""


def _ran_on(run, interpreter: str | None) -> str:
    return f" It ran `{run.command}`" + (f" on {interpreter}" if interpreter else "") + "."


def _ran_tests(counts: dict[str, int]) -> bool:
    return any(counts.get(k, 0) for k in ("passed", "failed", "xfailed", "xpassed", "skipped"))


def _not_found_advice(program: str, output: str) -> str:
    """What to do when the test command (exit code 127) or a program it starts is not found. A shell the
    command starts names the program it missed: that one is to install, not the shell. A path this process
    sees that the step did not is one the step's private root hid (testrun/private_root.py: it sees the
    project folder and the test environment's folders only)."""
    found = _SHELL_NOT_FOUND.search(output)
    missing = (found["program"] or found["path"]).strip() if found else program
    if missing != program and Path(missing).is_absolute() and Path(missing).exists():
        return (f"{missing!r}, which the test command starts, is not visible to the test step: it sees the "
                "project folder and the test environment's folders only (a path elsewhere, such as under /tmp or "
                "your home, is hidden). Give that interpreter with --python PATH, or change --test-command")
    return (f"Install {missing!r} or change --test-command (it runs without a shell, with the workspace as "
            "working directory)")


def cannot_run(run, workspace: str | Path, interpreter: str | None = None) -> CannotRun | None:
    """``None`` when the run ran the tests (passing or failing); else why it could not (a testrun.TestRun).
    ``interpreter``: the Python the command ran on (observe's manifest.Environment), named in the message."""
    workspace = Path(workspace)
    ran_on = _ran_on(run, interpreter)
    fix_env = (" Run it from a shell whose virtualenv has the project and its test dependencies, or give the "
               "project's interpreter with --python PATH (a .venv/ in the workspace is used when no virtualenv "
               "is active), or install them into that interpreter.")
    if run.passed or run.timed_out or _ran_tests(run.counts):
        return None
    program = command_program(run.command)
    if run.exit_code == NOT_FOUND:
        return CannotRun("command_not_found", f"{run.output.strip()}. {_not_found_advice(program, run.output)}")
    if run.exit_code == NOT_EXECUTABLE:
        return CannotRun("not_executable", f"{run.output.strip()[-300:]}. Make {program!r} executable or change "
                                           "--test-command")
    found = _INTERPRETER_NO_MODULE.search(run.output)
    if found and _third_party(found["module"], workspace):
        interp, module = found["interp"], found["module"]
        return CannotRun("missing_module", f"{interp} has no module {module!r}: install it for that interpreter "
                                           f"(`{interp} -m pip install {module}`) or change --test-command")
    conftest = _CONFTEST.search(run.output)
    if "pytest" in run.command and conftest is not None:
        errors = list(_ERROR_LINE.finditer(run.output, conftest.end()))
        cause = errors[-1]["text"].strip() if errors else "an error"
        at = _FILE_LINE.search(run.output, conftest.end())
        where = f" ({at['file']}:{at['line']})" if at else _where(run.output, errors[-1].start() if errors else
                                                                    len(run.output))
        return CannotRun("conftest_error", f"pytest could not load {conftest['file']}: {cause}{where}, so no test "
                                           f"was collected.{ran_on} Fix that conftest"
                                           + (", or make the module importable." + fix_env
                                              if "ModuleNotFoundError" in cause else "."))
    if "pytest" in run.command and run.exit_code == PYTEST_USAGE_ERROR:
        return CannotRun("usage_error", f"pytest rejected the command line (exit code 4): "
                                        f"{run.output.strip()[-300:]}. Change --test-command")
    if "pytest" in run.command and run.exit_code == PYTEST_NO_TESTS:
        return CannotRun("no_tests", "pytest collected no tests (exit code 5); point --test-command at the tests")
    found_missing = list(_MODULE_NOT_FOUND.finditer(run.output))
    missing = sorted({m["module"] for m in found_missing})
    environmental = [m for m in missing if _third_party(m, workspace) or _not_installed_project(m, workspace)]
    if missing and environmental == missing and run.counts.get("errors", 0) >= 1:
        places: dict[str, str] = {}
        for m in found_missing:
            places.setdefault(m["module"], _where(run.output, m.start()))
        names = ", ".join(repr(m.split(".")[0]) + places[m] for m in missing)
        project = [m for m in missing if _not_installed_project(m, workspace)]
        note = (f" ({', '.join(project)} is the project itself, under src/: install it there with "
                "`pip install -e .`)" if project else "")
        return CannotRun("missing_module", f"collecting the tests failed because {names} is not installed for the "
                                           f"test command's interpreter{note} (or fix the import if the name is "
                                           f"wrong).{ran_on}{fix_env}")
    return None


def command_problem(command: str, workspace: str | Path, env: dict[str, str] | None = None) -> CannotRun | None:
    """What keeps ``command`` from starting at all (checked before a session starts, and by observe):
    it does not parse, it is empty, or its program is neither on the test PATH nor in the workspace."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        return CannotRun("bad_command", f"the test command {command!r} does not parse ({exc}); quote it as a "
                                        "shell would, e.g. --test-command 'python -m pytest -q'")
    if not argv:
        return CannotRun("bad_command", "the test command is empty; e.g. --test-command 'python -m pytest -q'")
    workspace, program = Path(workspace), argv[0]
    if "/" in program:  # run as a path, relative to the workspace (the working directory)
        target = workspace / program
        if target.is_file():
            return None
        return CannotRun("command_not_found", f"the test command's program {program} is not in the workspace "
                                              f"{workspace}; change --test-command")
    search_path = test_environment(workspace, env)["PATH"]  # the task's test_env: its PATH, if it has one
    if shutil.which(program, path=search_path):
        return None
    hint = f" (the workspace has one: use ./{program})" if (workspace / program).is_file() else ""
    return CannotRun("command_not_found", f"the test command's program {program!r} is not found on the test PATH "
                                          f"({search_path}){hint}; install it or change --test-command")

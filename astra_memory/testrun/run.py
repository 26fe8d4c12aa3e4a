"""Run the project's tests as untrusted code: a subprocess, a timeout, a scrubbed environment.

The project's tests are not ours. They run with the workspace as working directory, with an
environment that holds none of our secrets, their output read through a pipe and bounded in size,
and every process they start killed when the step ends, times out, passes the output bound, or
when the agent dies (testrun/isolation.py).

Whether a run passed is decided from pytest's own per-test results, against what observe saw
(results.py), never from the exit code alone; and the environment the tests import from is held to
what observe recorded (manifest.py). Pytest's configuration and rootdir come from the workspace
alone (pytest_config.py); every run of a session (``private``) runs in a private root
(private_root.py; nodes/common.py ``private_step``). A test command that is not pytest is judged by its exit code,
and its run says so (``evidence == "exit_code"``).
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from astra_memory.crash import crash_point
from astra_memory.testrun.isolation import degraded_reason, start_step
from astra_memory.testrun.manifest import Environment, describe
from astra_memory.testrun.private_root import (
    PRIVATE_ROOT_FAILED,
    PRIVATE_ROOT_MESSAGE,
    PRIVATE_TMP,
    interpreter_paths,
)
from astra_memory.testrun.pytest_config import addopts
from astra_memory.testrun.reaper import READ_ONLY_FAILED, READ_ONLY_MESSAGE
from astra_memory.testrun.results import (
    Baseline,
    Results,
    ResultsChannel,
    is_pytest_command,
    judge,
)

MAX_OUTPUT_BYTES = 200_000
DEFAULT_TIMEOUT_S = 120.0
# Only these variables reach the project's tests; API keys, tokens and our settings do not.
# Nothing secret: the locale, the time zone, and pytest's own switch for its installed plugins (a shell
# that turns their autoloading off gets it in the project's runs too; the suite sets it: tests/conftest.py).
PASSED_THROUGH_ENV = ("LANG", "LC_ALL", "TZ", "SYSTEMROOT", "PYTEST_DISABLE_PLUGIN_AUTOLOAD")
SYSTEM_PATH = ("/usr/local/bin", "/usr/bin", "/bin")
_SUMMARY = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|deselected)")


@dataclass(frozen=True)
class TestRun:
    """The observable result of one run of the project's test command."""

    command: str
    exit_code: int
    passed: bool
    counts: dict[str, int]
    output: str
    duration_s: float
    timed_out: bool = False
    outcome: str = ""
    output_overflow: bool = False  # killed once its output passed MAX_OUTPUT_BYTES; never a pass
    evidence: str = "exit_code"  # "pytest": judged by per-test results; "exit_code": by the exit code only
    tests: dict[str, str] = field(default_factory=dict)  # test id -> outcome (all at observe, else the non-passing)
    results_complete: bool = False  # pytest finished and its signed results are whole
    findings: list[str] = field(default_factory=list)  # why it is not a pass (empty when it is)
    environment_changes: list[str] = field(default_factory=list)  # paths changed since observe
    inconclusive: str | None = None  # not a pass, but not a failure either (results.Verdict.inconclusive)
    slots: dict[str, str] = field(default_factory=dict)  # parametrized id -> slot (testrun/id_slots.py)
    doctests: dict[str, str] = field(default_factory=dict)  # doctest id -> digest of its examples (results.py)

    def to_dict(self) -> dict:
        return asdict(self)


def test_environment(workspace: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A minimal environment, nothing secret. PATH is our interpreter first plus the system's (what a
    bundled scenario runs on) unless ``extra`` (the task's ``test_env``) brings its own: a
    ``--workspace`` task brings the invoking shell's PATH and VIRTUAL_ENV (``project_environment``)."""
    interpreter_dir = str(Path(sys.executable).parent)
    path = os.pathsep.join([interpreter_dir, *SYSTEM_PATH])
    env = {k: os.environ[k] for k in PASSED_THROUGH_ENV if k in os.environ}
    env.update(
        {
            "PATH": path,
            "HOME": str(workspace),
            "TMPDIR": tempfile.gettempdir(),
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0",
            "PYTHONPATH": str(workspace),
        }
    )
    env.setdefault("LANG", "C.UTF-8")
    env.update(extra or {})  # the task's own, declared variables (never ours)
    return env


class InterpreterError(ValueError):
    """The interpreter asked for with ``python`` (``--python``) is not a runnable file."""


def project_environment(workspace: str | Path, python: str | None = None,
                        environ: Mapping[str, str] | None = None) -> tuple[dict[str, str], str | None, str]:
    """The environment a user's own project (``--workspace``) runs its tests in, as the user would run
    them in the invoking shell: ``(variables for the task's test_env, interpreter or None, why)``.

    The shell's PATH and VIRTUAL_ENV (nothing else of it: no secrets; our own interpreter's folder
    is not added, so the tool's packages do not reach the project's tests unless that folder is
    already on the user's PATH). ``python`` (an interpreter path, ``--python``) puts its folder first
    on PATH (and its venv in VIRTUAL_ENV), so ``python``/``pytest`` in the test command are its. With
    no ``python`` and no active virtualenv, a ``.venv/bin/python`` in the workspace is used (``why``
    says so)."""
    environ = os.environ if environ is None else environ
    workspace = Path(workspace)
    path = environ.get("PATH") or os.pathsep.join(SYSTEM_PATH)
    variables = {"PATH": path}
    if environ.get("VIRTUAL_ENV"):
        variables["VIRTUAL_ENV"] = environ["VIRTUAL_ENV"]
    why = ""
    if python:
        why = "given with --python"
    elif not environ.get("VIRTUAL_ENV") and (workspace / ".venv" / "bin" / "python").exists():
        python, why = str(workspace / ".venv" / "bin" / "python"), "the workspace's .venv (no virtualenv active)"
    if not python:
        return variables, None, "the PATH of the invoking shell"
    interpreter = Path(python).expanduser()
    interpreter = interpreter if interpreter.is_absolute() else Path.cwd() / interpreter
    if not interpreter.is_file() or not os.access(interpreter, os.X_OK):
        raise InterpreterError(f"the interpreter {interpreter} is not an executable file; give the path of the "
                               "project's Python (e.g. .venv/bin/python) with --python")
    folder = str(interpreter.parent)  # not resolved: a venv's python is a link out of the venv
    variables["PATH"] = os.pathsep.join([folder, *(p for p in path.split(os.pathsep) if p and p != folder)])
    variables.pop("VIRTUAL_ENV", None)
    if (interpreter.parent.parent / "pyvenv.cfg").is_file():
        variables["VIRTUAL_ENV"] = str(interpreter.parent.parent)
    return variables, str(interpreter), why


def parse_counts(output: str) -> dict[str, int]:
    """Read pytest's closing summary line ("1 failed, 3 passed in 0.12s")."""
    for line in reversed(output.splitlines()):
        if " in " in line and _SUMMARY.search(line):
            counts: dict[str, int] = {}
            for number, kind in _SUMMARY.findall(line):
                kind = "errors" if kind.startswith("error") else kind
                counts[kind] = counts.get(kind, 0) + int(number)
            return counts
    return {}


def run_tests(workspace: str | Path, command: str, *, timeout_s: float = DEFAULT_TIMEOUT_S,
              env: dict[str, str] | None = None, isolation: str | None = None,
              baseline: Baseline | None = None, environment: Environment | None = None,
              evidence: str | None = None, private: bool = False, hide: Sequence[str] = (),
              only: list[str] | None = None) -> TestRun:
    """Run ``command`` (no shell) inside ``workspace`` and judge what happened.

    ``baseline`` is observe's run (results.observed): a later run passes only as results.judge
    says against it. ``environment`` (default: the baseline's) is held still: mounted read-only for
    the step, or checked by manifest after it; any change fails the run. ``evidence`` forces how
    the run is judged ("exit_code": without our plugin, as before issue #21; bench perf compares).
    ``private`` runs it in a private root (testrun/private_root.py) where this host has one; where it
    has none the outcome says the run was not private; ``hide`` are folders it then finds empty.
    Every pytest run has its configuration and
    rootdir pinned to ``workspace`` (testrun/pytest_config.py).
    ``only``: with our plugin, run just these test ids (files, folders): the rest is deselected.

    Every process the command starts ends with this call: at its end, at the timeout, once its
    output passes ``MAX_OUTPUT_BYTES``, and when this process dies (see testrun/isolation.py).
    """
    workspace = Path(workspace).resolve()
    argv = shlex.split(command)
    if not argv:
        raise ValueError("the test command is empty")
    if environment is None and baseline is not None:
        environment = baseline.environment
    if evidence is None:
        evidence = baseline.evidence if baseline is not None else (
            "pytest" if is_pytest_command(command) else "exit_code")
    channel = ResultsChannel(only) if evidence == "pytest" else None
    step_env = test_environment(workspace, env)
    if channel is not None:
        step_env = channel.environment(step_env, addopts(workspace, argv))
    degraded = ""
    if private:
        degraded = (f"isolation mode {isolation} has no namespaces" if isolation not in (None, "pid-namespace")
                    else degraded_reason())
    keep = None
    if private and not degraded:
        step_env["TMPDIR"] = PRIVATE_TMP
        keep = kept_paths(step_env, environment, channel.path if channel is not None else None)
    started = time.monotonic()
    try:
        try:
            step = start_step(argv, cwd=workspace, env=step_env, isolation=isolation,
                              read_only=environment.read_only if environment else (), private_root=keep,
                              hide=hide if keep is not None else (), pass_fds=channel.pass_fds if channel is not None else ())
            if channel is not None:
                channel.started()
        except OSError as exc:
            message = f"could not start the test command {argv[0]!r}: {exc.strerror or exc}"
            nothing = Results() if channel is not None else None
            return _judged(command, 127, message, time.monotonic() - started, "exited", nothing, baseline, [message])
        with step:
            crash_point("test:running")
            raw, ending = step.collect(timeout_s=timeout_s, max_bytes=MAX_OUTPUT_BYTES)
        results = channel.read() if channel is not None else None
    finally:
        if channel is not None:
            channel.remove()
    exit_code = step.exit_code
    output = raw[:MAX_OUTPUT_BYTES].decode("utf-8", errors="replace")
    problems = []
    if ending == "overflow":
        output += f"\n[test command killed: its output passed {MAX_OUTPUT_BYTES} bytes]"
        exit_code = 125
        problems.append(f"killed: its output passed {MAX_OUTPUT_BYTES} bytes")
    if ending == "timeout":
        output += f"\n[test command killed after {timeout_s:.0f}s timeout]"
        exit_code = 124
        problems.append(f"killed after the {timeout_s:.0f}s timeout")
    if (exit_code == READ_ONLY_FAILED and output.startswith(READ_ONLY_MESSAGE)) or (
            exit_code == PRIVATE_ROOT_FAILED and output.startswith(PRIVATE_ROOT_MESSAGE)):
        problems.append(output.strip().splitlines()[0])
    changes = environment.check() if environment is not None else []
    if changes:
        problems.append(describe(changes))
    return _judged(command, exit_code, output, time.monotonic() - started, ending, results, baseline, problems,
                   changes=changes, degraded=degraded)


def kept_paths(env: dict[str, str], environment: Environment | None, plugin: Path | None) -> list[str]:
    """What a private root shows besides the project folder, read-only: the environment the tests
    import from, the folders of the test PATH and PYTHONPATH, our interpreter and our plugin."""
    paths = [*(environment.roots if environment else ()), *(environment.imports if environment else ()),
             *env.get("PATH", "").split(os.pathsep), *env.get("PYTHONPATH", "").split(os.pathsep),
             *interpreter_paths()]
    if plugin is not None:
        paths.append(str(plugin))
    return [p for p in dict.fromkeys(paths) if p and os.path.isabs(p)]


def _judged(command: str, exit_code: int, output: str, duration_s: float, ending: str, results: Results | None,
            baseline: Baseline | None, problems: list[str], *, changes: list[str] | None = None,
            degraded: str = "") -> TestRun:
    overflow = ending == "overflow"
    printed = parse_counts(output) if not overflow else {}
    verdict = judge(command=command, exit_code=exit_code, ending=ending, results=results, baseline=baseline,
                    printed=printed, problems=problems)
    outcome = verdict.outcome + (f"; not run in a private root: {degraded}" if degraded else "")
    return TestRun(
        command=command,
        exit_code=exit_code,
        passed=verdict.passed and ending == "exited",
        counts=dict(results.counts) if results is not None and results.started else printed,
        output=output,
        duration_s=round(duration_s, 3),
        timed_out=ending == "timeout",
        outcome=outcome,
        output_overflow=overflow,
        evidence="pytest" if results is not None else "exit_code",
        tests=verdict.tests,
        results_complete=bool(results and results.complete),
        findings=verdict.findings,
        environment_changes=list(changes or []),
        inconclusive=verdict.inconclusive if ending == "exited" else None,
        slots=dict(results.slots) if results is not None else {},
        doctests=dict(results.doctests) if results is not None else {},
    )

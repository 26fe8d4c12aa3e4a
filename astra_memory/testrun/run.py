"""Run the project's tests as untrusted code: a subprocess, a timeout, a scrubbed environment.

The project's tests are not ours. They run with the workspace as working directory, with an
environment that holds none of our secrets, their output read through a pipe and bounded in size,
and every process they start killed when the step ends, times out, passes the output bound, or
when the agent dies (step_isolation.py).
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from astra_memory.crash import crash_point
from astra_memory.testrun.isolation import start_step

MAX_OUTPUT_BYTES = 200_000
DEFAULT_TIMEOUT_S = 120.0
# Only these variables reach the project's tests; API keys, tokens and our settings do not.
PASSED_THROUGH_ENV = ("LANG", "LC_ALL", "TZ", "SYSTEMROOT")
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

    def to_dict(self) -> dict:
        return asdict(self)


def test_environment(workspace: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A minimal environment: our interpreter first on PATH, nothing secret."""
    interpreter_dir = str(Path(sys.executable).parent)
    path = os.pathsep.join([interpreter_dir, "/usr/local/bin", "/usr/bin", "/bin"])
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


def outcome_string(command: str, exit_code: int, counts: dict[str, int]) -> str:
    """The exact outcome string a passing run confirms, e.g. 'pytest passed with exit code 0 (4 passed)'."""
    runner = "pytest" if "pytest" in command else f"`{command}`"
    detail = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    verdict = "passed" if exit_code == 0 else "failed"
    return f"{runner} {verdict} with exit code {exit_code}" + (f" ({detail})" if detail else "")


def run_tests(workspace: str | Path, command: str, *, timeout_s: float = DEFAULT_TIMEOUT_S,
              env: dict[str, str] | None = None, isolation: str | None = None) -> TestRun:
    """Run ``command`` (no shell) inside ``workspace`` and return what happened.

    Every process the command starts ends with this call: at its end, at the timeout, once its
    output passes ``MAX_OUTPUT_BYTES``, and when this process dies (see step_isolation.py).
    """
    workspace = Path(workspace).resolve()
    argv = shlex.split(command)
    if not argv:
        raise ValueError("the test command is empty")
    started = time.monotonic()
    try:
        step = start_step(argv, cwd=workspace, env=test_environment(workspace, env), isolation=isolation)
    except OSError as exc:
        message = f"could not start the test command {argv[0]!r}: {exc.strerror or exc}"
        return TestRun(command, 127, False, {}, message, time.monotonic() - started, False,
                       outcome_string(command, 127, {}))
    with step:
        crash_point("test:running")
        raw, ending = step.collect(timeout_s=timeout_s, max_bytes=MAX_OUTPUT_BYTES)
    exit_code = step.exit_code
    output = raw[:MAX_OUTPUT_BYTES].decode("utf-8", errors="replace")
    timed_out, overflow = ending == "timeout", ending == "overflow"
    if overflow:
        output += f"\n[test command killed: its output passed {MAX_OUTPUT_BYTES} bytes]"
        exit_code = 125
    if timed_out:
        output += f"\n[test command killed after {timeout_s:.0f}s timeout]"
        exit_code = 124
    counts = parse_counts(output) if not overflow else {}
    return TestRun(
        command=command,
        exit_code=exit_code,
        passed=exit_code == 0 and ending == "exited",
        counts=counts,
        output=output,
        duration_s=round(time.monotonic() - started, 3),
        timed_out=timed_out,
        outcome=outcome_string(command, exit_code, counts),
        output_overflow=overflow,
    )

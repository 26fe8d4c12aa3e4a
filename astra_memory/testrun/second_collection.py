"""Observe's second collection: are the failing tests' parametrized ids the same in another process?

Observe runs the tests once in the workspace. When a test that failed there is parametrized, its
id may be built from something that differs per process (testrun/id_slots.py). So the tests are
collected once more (``--collect-only``, nothing run) in a throwaway copy of the pre-session
snapshot, in a new process, and the ids of each failing function compared with observe's: the
functions whose ids differ are recorded as unstable, which the outcome of every later run says
when it matches them by position. The copy is removed afterwards; what the collection writes
stays in it.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from astra_memory.testrun.id_slots import differing_functions, function_of
from astra_memory.testrun.run import run_tests
from astra_memory.workspace.snapshot import fresh_copy

COPY_DIR = "ids-check"


def failing_slots(slots: dict[str, str], failing: list[str]) -> dict[str, str]:
    """The slots of every parametrized function with a test in ``failing``: what observe keeps."""
    functions = {function_of(slots[t]) for t in failing if t in slots}
    return {t: s for t, s in slots.items() if function_of(s) in functions}


def unstable_functions(observed: dict[str, str], *, pristine: str | Path, workspace: str | Path, command: str,
                       env: dict[str, str] | None, timeout_s: float, environment, where: Path | None,
                       private: bool = False, hide: list[str] = ()) -> list[str]:
    """The functions of ``observed`` (``{id: slot}``) whose ids differ in a second collection; empty when
    that collection cannot be read (it then shows nothing). ``private`` and ``hide``: as ``run_tests``
    (observe runs it in a private root, like every test step of a session)."""
    if not observed:
        return []
    base = Path(tempfile.mkdtemp(prefix="astra-ids-")) if where is None else where
    destination = base / COPY_DIR
    variables = dict(env or {})
    variables["PYTEST_ADDOPTS"] = " ".join(filter(None, [variables.get("PYTEST_ADDOPTS", ""), "--collect-only -q"]))
    try:
        fresh_copy(pristine, destination, {}, workspace=workspace)
        run = run_tests(destination, command, timeout_s=timeout_s, env=variables, environment=environment,
                        evidence="pytest", private=private, hide=hide)
    except OSError:
        return []
    finally:
        shutil.rmtree(destination if where is not None else base, ignore_errors=True)
    if not run.results_complete:
        return []
    return differing_functions(observed, run.slots)

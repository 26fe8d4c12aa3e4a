"""Confirm one candidate commit as a fix by running its own tests, the way the agent's confirm step
confirms a session's fix (nodes/confirm.py): fresh copies, the confirming run's private root and
judgement (testrun/run.py, testrun/private_root.py, workspace/snapshot.py), no second runner.

1. The parent commit's tree is exported once (``history.export_tree``): the snapshot.
2. **With the tests**: a fresh copy of it with only the commit's test files written over it
   (``fresh_copy``; a test file the commit deleted is deleted). The whole test command runs in a copy of it, in
   a private root, the environment the tests import from recorded first and held still for both runs
   (testrun/manifest.py, as observe does). The commit's tests (the ids under its test files) must fail by id; a failure of
   any other test makes the commit one that cannot be judged here (the bug it fixes cannot be told
   from what else is broken at that commit). A failing parametrized test's ids are collected a
   second time (testrun/second_collection.py, as observe does): ids that differ are unstable.
3. **With the fix**: a fresh copy of the snapshot with the commit's test files *and* source files.
   The run is judged against run 2 exactly as confirm judges against observe (testrun/results.py
   ``judge``): every test that failed must pass, and nothing that passed may fail, be skipped or not
   run.

The verdict (``Verdict``): ``confirmed``, or ``not_a_fix`` (its tests already pass at the parent, or
still fail with its source change), ``cannot_run`` (no per-test results, an error rather than a
failure, other tests failing at the parent), ``timeout`` or ``unstable`` (parametrized ids that
cannot be matched between the runs), each with its reason and the runs' outcomes. Nothing is stored
here: ``learn/store_commit.py`` does that for a confirmed one.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from astra_memory.errors import WorkspaceError
from astra_memory.learn.history import Change, Commit, HistoryError, change_of, export_tree, remove_file
from astra_memory.testrun.manifest import Environment, record_environment
from astra_memory.testrun.results import FAILING, Baseline
from astra_memory.testrun.run import TestRun, run_tests, test_environment
from astra_memory.testrun.second_collection import failing_slots, unstable_functions
from astra_memory.workspace.snapshot import fresh_copy

VERDICTS = ("confirmed", "not_a_fix", "cannot_run", "timeout", "unstable")
PARENT_DIR, TESTS_DIR, FIX_DIR, RECORDS_DIR = "parent", "with-tests", "with-fix", "records"
FIRST_RUN_DIR = "with-tests-run"  # the run with the tests, in its own copy: the second collection starts clean
MAX_IDS_SAID = 3


@dataclass
class Verdict:
    """What confirming one commit found (plain data: kept in the learn graph's state)."""

    verdict: str  # one of VERDICTS
    reason: str = ""
    failing_tests: list[str] = field(default_factory=list)  # the commit's tests that failed at the parent
    failing_output: str = ""  # run 2's output (the symptom's source), confirmed only
    outcome: str = ""  # run 3's outcome string, confirmed only
    runs: list[str] = field(default_factory=list)  # each run's outcome, in order
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class RunOptions:
    """How the commit's tests run: the user's test command and environment (``--python``)."""

    test_command: str
    test_env: dict[str, str] = field(default_factory=dict)
    timeout_s: float = 120.0
    hide: tuple[str, ...] = ()  # folders the private root shows empty (the workspace, our home, the user's)


def _ids(ids: list[str]) -> str:
    shown = ", ".join(ids[:MAX_IDS_SAID])
    return shown + (f" and {len(ids) - MAX_IDS_SAID} more" if len(ids) > MAX_IDS_SAID else "")


def under(test_id: str, files: list[str]) -> bool:
    """Whether a pytest id belongs to one of ``files`` (its node, or a test in it)."""
    node = test_id.split("::", 1)[0]
    return any(node == f or test_id == f for f in files)


def _run(folder: Path, options: RunOptions, environment: Environment, baseline: Baseline | None = None) -> TestRun:
    return run_tests(folder, options.test_command, timeout_s=options.timeout_s, env=options.test_env,
                     baseline=baseline, environment=environment, private=True, hide=list(options.hide))


def _copy(pristine: Path, destination: Path, workspace: Path, change: Change, *, with_fix: bool) -> Path:
    files = {rel: data for rel, data in change.tests.items() if data is not None}
    if with_fix:
        files.update(change.sources)
    fresh_copy(pristine, destination, files, workspace=workspace)
    for rel, data in change.tests.items():
        if data is None:
            remove_file(destination, rel)
    return destination


def judge_commit(workspace: str | Path, commit: Commit, options: RunOptions, scratch: str | Path,
                 change: Change | None = None) -> Verdict:
    """Confirm ``commit`` (a candidate of ``history.walk``) in fresh copies under ``scratch`` (emptied
    first, removed after): the module docstring's steps. ``change`` is read from the repository when
    not given. The library entry point: a benchmark can drive learning commit by commit with it."""
    workspace, scratch = Path(workspace).resolve(), Path(scratch)
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    try:
        return _judge(workspace, commit, options, scratch, change)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _judge(workspace: Path, commit: Commit, options: RunOptions, scratch: Path, change: Change | None) -> Verdict:
    started = time.monotonic()

    def done(verdict: str, reason: str, runs: list[TestRun], **more) -> Verdict:
        return Verdict(verdict=verdict, reason=reason, runs=[r.outcome for r in runs],
                       seconds=round(time.monotonic() - started, 2), **more)

    try:
        change = change or change_of(workspace, commit)
        pristine = export_tree(workspace, commit.parent, scratch / PARENT_DIR)
        with_tests = _copy(pristine, scratch / TESTS_DIR, workspace, change, with_fix=False)
        # what the tests import from, recorded as observe records it and held still for both runs
        environment = record_environment(with_tests, options.test_command,
                                         test_environment(with_tests, options.test_env), scratch / RECORDS_DIR)
    except (HistoryError, WorkspaceError, OSError, KeyError, ValueError) as exc:
        return done("cannot_run", f"its trees cannot be built: {exc}", [])
    try:
        first_copy = fresh_copy(with_tests, scratch / FIRST_RUN_DIR, {}, workspace=workspace)
    except (WorkspaceError, OSError) as exc:
        return done("cannot_run", f"its trees cannot be built: {exc}", [])
    first = _run(first_copy, options, environment)
    if first.timed_out:
        return done("timeout", f"the tests ran past the {options.timeout_s:g}s timeout at its parent", [first])
    if first.environment_changes:
        return done("cannot_run", f"its tests change the environment they import from: {first.outcome}", [first])
    if first.evidence != "pytest" or not first.results_complete:
        return done("cannot_run", f"no per-test results at its parent: {first.outcome}", [first])
    failing = sorted(t for t, o in first.tests.items() if o in FAILING)
    mine = [t for t in failing if under(t, commit.test_files)]
    others = [t for t in failing if t not in mine]
    if others:
        return done("cannot_run", f"other tests fail at its parent too: {_ids(others)}", [first])
    if not mine:
        ran = any(under(t, commit.test_files) for t in first.tests)
        return done("not_a_fix", "its tests already pass at its parent" if ran
                    else "no test of its test files ran at its parent", [first])
    slots = failing_slots(first.slots, mine)
    unstable = unstable_functions(slots, pristine=with_tests, workspace=workspace, command=options.test_command,
                                  env=options.test_env, timeout_s=options.timeout_s, environment=environment,
                                  where=scratch / RECORDS_DIR) if slots else []
    if unstable:  # as observe: a parametrized id that differs between two collections cannot be matched
        return done("unstable", f"parametrized test ids differ between two collections: {_ids(unstable)}", [first])
    baseline = Baseline(evidence="pytest", tests=dict(first.tests), complete=True, environment=environment,
                        slots=slots, doctests=dict(first.doctests))
    try:
        with_fix = _copy(pristine, scratch / FIX_DIR, workspace, change, with_fix=True)
    except (HistoryError, WorkspaceError, OSError) as exc:
        return done("cannot_run", f"the tree with its fix cannot be built: {exc}", [first])
    second = _run(with_fix, options, environment, baseline)
    runs = [first, second]
    if second.timed_out:
        return done("timeout", f"the tests ran past the {options.timeout_s:g}s timeout with its fix", runs)
    if second.inconclusive:
        return done("unstable", f"unstable test ids: {second.inconclusive}", runs)
    if not second.results_complete:
        return done("cannot_run", f"no complete per-test results with its fix: {second.outcome}", runs)
    if not second.passed:
        errors = sorted(t for t, o in second.tests.items() if o == "error")
        if errors:
            return done("cannot_run", f"tests error with its fix (not a failure: {_ids(errors)})", runs)
        return done("not_a_fix", f"with its source change: {second.outcome}", runs)
    return done("confirmed", f"{len(mine)} of its tests fail at its parent and pass with its fix", runs,
                failing_tests=mine, failing_output=first.output, outcome=second.outcome)

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
3. **Its source change is a change a fix may make**, as the agent's gates hold a session's edits
   to it: no source file it changes is test machinery or test data by the protected-path rule
   (workspace/protected.py, read from the parent's tree with the commit's tests: a project pytest
   plugin named by ``-p`` in ``addopts``, a file the test command runs, a doctest's examples, ...),
   no line it adds special-cases the test runner (rules/runner_checks.py, as nodes/store.py), and it
   brings no lone carriage return into a file (stores/record.py ``lone_cr_refusal``: what replay refuses,
   and what memory stores ``not_replayable`` however a diff comes in).
   Otherwise it is **refused**, with the file or line, and nothing runs with it.
4. **With the fix**: a fresh copy of the snapshot with the commit's test files *and* source files.
   The run is judged against run 2 exactly as confirm judges against observe (testrun/results.py
   ``judge``): every test that failed must pass, and nothing that passed may fail, be skipped or not
   run.
5. **The bug still shows without it** (as confirm's ``bug_not_shown``): the commit's failing tests
   run once more in a new copy of the parent's tree with only its tests, after the run with the fix;
   they must fail again. A test that failed at the parent only by time, order or chance (and then
   passes whatever the source) makes the commit **not a fix**.

The verdict (``Verdict``): ``confirmed``, or ``not_a_fix`` (its tests already pass at the parent, or
still fail with its source change, or pass at the parent on the run after), ``refused`` (step 3),
``cannot_run`` (no per-test results, an error rather than a
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
from astra_memory.rules.runner_checks import runner_checks
from astra_memory.stores.record import lone_cr_refusal
from astra_memory.testrun.manifest import Environment, record_environment
from astra_memory.testrun.results import FAILING, Baseline
from astra_memory.testrun.run import TestRun, run_tests, test_environment
from astra_memory.testrun.second_collection import failing_slots, unstable_functions
from astra_memory.workspace.protected import ProtectedPaths
from astra_memory.workspace.snapshot import fresh_copy

VERDICTS = ("confirmed", "not_a_fix", "refused", "cannot_run", "timeout", "unstable")
PARENT_DIR, TESTS_DIR, FIX_DIR, RECORDS_DIR = "parent", "with-tests", "with-fix", "records"
AGAIN_DIR = "with-tests-again"  # the parent with the tests once more, after the run with the fix
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


def _run(folder: Path, options: RunOptions, environment: Environment, baseline: Baseline | None = None,
         only: list[str] | None = None) -> TestRun:
    return run_tests(folder, options.test_command, timeout_s=options.timeout_s, env=options.test_env,
                     baseline=baseline, environment=environment, private=True, hide=list(options.hide), only=only)


def why_refused(with_tests: Path, change: Change, options: RunOptions, test_ids: list[str],
                folders: list[str]) -> str:
    """Why the commit's source change is not one a fix may make (step 3), or "": a source file that
    is test machinery or test data to the protected-path rule of the parent's tree with the commit's
    tests (what ``apply_edit`` and ``confirm`` refuse in a session), or an added line that
    special-cases the test runner (what ``store`` refuses)."""
    rule = ProtectedPaths.of(None, workspace=with_tests, test_command=options.test_command, test_ids=test_ids,
                             config_root=with_tests)
    for rel, after in change.sources.items():
        why = rule.why(rel)
        if why is None:
            try:
                before = (with_tests / rel).read_bytes().decode("utf-8")
                why = rule.why_changed(rel, before, after.decode("utf-8"))
            except (OSError, UnicodeDecodeError):
                why = None  # not text: the doctest rule reads text only
        if why is not None:
            return f"its source change edits what decides whether tests pass: {why}"
    lone_cr = lone_cr_refusal(change.source_diff)  # the rule memory applies to every stored diff
    if lone_cr:
        return "its source change is " + lone_cr
    checks = runner_checks(change.source_diff, paths=folders)
    if checks:
        return "its source change special-cases the test runner: " + "; ".join(c.describe() for c in checks[:3])
    return ""


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
    refused = why_refused(with_tests, change, options, sorted(first.tests),
                          [str(scratch), str(workspace), *options.hide])
    if refused:
        return done("refused", refused, [first])
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
    try:
        again_copy = fresh_copy(with_tests, scratch / AGAIN_DIR, {}, workspace=workspace)
    except (WorkspaceError, OSError) as exc:
        return done("cannot_run", f"its trees cannot be built: {exc}", runs)
    again = _run(again_copy, options, environment, baseline, only=mine)
    runs.append(again)
    if again.timed_out:
        return done("timeout", f"the tests ran past the {options.timeout_s:g}s timeout at its parent, run again", runs)
    still = [t for t in mine if again.tests.get(t) in FAILING]
    if len(still) < len(mine):
        passing = [t for t in mine if t not in still]
        if again.results_complete and not again.inconclusive:
            return done("not_a_fix", f"its tests pass at its parent when run again after its fix ({_ids(passing)}): "
                        "they failed there by time, order or chance, not because of its source", runs)
        return done("cannot_run", f"its tests cannot be run again at its parent: {again.outcome}", runs)
    return done("confirmed", f"{len(mine)} of its tests fail at its parent and pass with its fix", runs,
                failing_tests=mine, failing_output=first.output, outcome=second.outcome)

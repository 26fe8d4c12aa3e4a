"""A pass is a test result, not an exit code.

Every run of a pytest command loads our plugin (pytest_plugin.py, copied for each run into a new
directory and loaded with ``-p`` through PYTEST_ADDOPTS) which writes each test's outcome, by id,
signed with a per-run key, to an inherited pipe (``ResultsChannel``; no path the tests can find).
``judge`` reads those lines against what observe saw:

- the results are complete (pytest's ``finish`` line is there: a process ended by ``os._exit`` or
  killed before pytest finished never passes), the process's exit code is 0 and is pytest's own
  exit status, and the terminal summary pytest printed agrees with the per-test results (a
  subtest that passed is counted apart, as pytest does; a failed one is a failure of its test);
- no test fails or errors, and no test module fails to collect;
- every test that failed (or errored) at observe now passes by id: one now skipped, xfailed or
  not run at all is a failure; a doctest that failed is a test like any other (its examples are
  protected from edits: workspace/protected.py);
- a module (or folder) that failed to collect at observe has no test ids there: each test
  collected from it now must pass (one skipped or xfailed fails the run), and it must hold at
  least one test;
- a parametrized test whose id differs from observe's (ids built from ``object()`` reprs, from
  a set holding ``None``) is matched by its function and parameter position, when and only when
  the function's ids differ between the runs (testrun/id_slots.py; the outcome names it); a run
  that fails only because such ids are not run now and cannot be matched is ``inconclusive``
  (``Verdict.inconclusive``, kept in the run record): not a pass, and not a failed attempt;
- every test that passed at observe still runs and still passes (one now skipped, or not run,
  is a failure: a change that stops a test from running hides what it would catch), except in a
  run of our own selection (``only``); a parametrized one whose id may have changed makes the run
  ``inconclusive`` rather than failed;
- at least one test passed.

Skips, xfails, deselections and new tests are reported in the outcome string. A command that is
not pytest (``make test``, ``tox``, ``python -m unittest``) can only be judged by its exit code:
such runs say ``evidence: exit_code`` and their outcome string says plainly that only the exit
code was checked.

Outcome strings (what a confirmed fix stores, verbatim):

- judged against observe: ``4 of 4 failing tests now pass; 331 passed, 0 failed``, with
  ``, 2 skipped``, ``, 1 xfailed``, ``, 1 xpassed``, ``, 3 deselected``, ``, 1 error`` when there
  are any, and notes such as ``; 2 tests new since observe``;
- observe's own run: ``1 failing test; 3 passed, 1 failed; ...`` (``no failing tests; ...``);
- a run that is not a pass ends with ``; not a pass: <why>; <why>`` (``still failing: <ids>``,
  ``failed at observe, now skipped: <ids>``, ``the results are incomplete: ...``, ``the process
  exited with code 0 but pytest's exit status was 1 ...``, ``the environment the tests import
  from changed: <paths>``, ...);
- exit code only: ``exit code 0 from `make test` (exit code only: not a pytest run, no per-test
  results)``.

What the project's code can still do: it runs in pytest's own process, so code written to forge
results from inside (patch our plugin object, its key, or pytest's reports) can, and so can code
that runs before pytest imports our plugin (a ``sitecustomize.py`` on the test PYTHONPATH, a
``-p`` plugin of the project's own configuration) and reads the key first. What it cannot do: end
the process early with exit code 0, skip the failing tests, rewrite or append to the results
(issue 32, class 2: a line without the key's signature, or a gap in the numbering, makes the
results incomplete), or find them by a path (``/proc/self/fd`` gives a pipe it can write junk to
and read lines from, never a line the agent accepts).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import select
import shlex
import shutil
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from astra_memory.testrun.id_slots import translate

PLUGIN_MODULE = "astra_pytest_results"
# as in pytest_plugin.py
CHANNEL_ENV, ADDOPTS_WAS_ENV, KEY_BYTES = "ASTRA_RESULTS_CHANNEL", "ASTRA_PYTEST_ADDOPTS_WAS", 32
MAX_RESULTS_BYTES = 64 * 1024 * 1024  # what is read beyond it is dropped: the results are then damaged
SELECT_FILE = "select.json"  # as in pytest_plugin.py: the ids to run, beside the plugin
_PLUGIN_SOURCE = Path(__file__).with_name("pytest_plugin.py").read_text(encoding="utf-8")  # read once, at import
_PYTEST_PROGRAM = re.compile(r"^(pytest|py\.test)(-?\d+(\.\d+)*)?(\.exe)?$")
PASSING = ("passed",)
FAILING = ("failed", "error")
EXIT_CODE_ONLY = "(exit code only"  # how an outcome judged by the exit code alone says so (judge)
COUNT_KEYS = ("passed", "failed", "errors", "skipped", "xfailed", "xpassed", "deselected")
MAX_IDS_SHOWN = 3


def is_pytest_command(command: str) -> bool:
    """Whether ``command`` runs pytest itself: ``pytest ...``, ``python -m pytest ...``,
    ``.venv/bin/pytest``, ``coverage run -m pytest``, ``uv run pytest``; not ``tox`` or ``make test``."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    for index, arg in enumerate(argv):
        if _PYTEST_PROGRAM.match(os.path.basename(arg)) and (index == 0 or not argv[index - 1].startswith("-")
                                                              or argv[index - 1] == "-m"):
            return True
        if arg in ("-mpytest", "-mpy.test"):
            return True
    return False


# -- running with the plugin ------------------------------------------------------------------------

class ResultsChannel:
    """One run's results channel (pytest_plugin.py): our plugin in a new directory, a per-run key
    the plugin reads from an inherited pipe, and the pipe its signed lines come back on, read while
    the tests run. The tests can find the plugin's directory (it is on their PYTHONPATH) but no
    path to the results, and no key to sign a line with."""

    def __init__(self, only: list[str] | None = None) -> None:
        """``only``: run just these test ids (or files, folders); every other test is deselected."""
        self.path = Path(tempfile.mkdtemp(prefix="astra-results-"))
        (self.path / f"{PLUGIN_MODULE}.py").write_text(_PLUGIN_SOURCE, encoding="utf-8")
        self._key = secrets.token_bytes(KEY_BYTES)
        self.key_fd, key_writer = os.pipe()
        try:
            os.write(key_writer, self._key)
        finally:
            os.close(key_writer)
        self._reader, self.results_fd = os.pipe()
        self._data = bytearray()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._drain, name="astra-results", daemon=True)
        self._thread.start()
        self.selected = only is not None
        if self.selected:
            (self.path / SELECT_FILE).write_text(json.dumps(sorted(only)), encoding="utf-8")

    @property
    def pass_fds(self) -> tuple[int, int]:
        return self.key_fd, self.results_fd

    def _drain(self) -> None:
        while True:
            readable, _, _ = select.select([self._reader], [], [], 0.2)
            if not readable:
                if self._done.is_set():
                    return
                continue
            chunk = os.read(self._reader, 65536)
            if not chunk:
                return
            if len(self._data) <= MAX_RESULTS_BYTES:
                self._data += chunk

    def environment(self, env: dict[str, str], options: str = "") -> dict[str, str]:
        """``env`` with our plugin loaded (``-p`` and ``options`` added to PYTEST_ADDOPTS, our directory
        last on PYTHONPATH) and the channel's descriptors named for it."""
        env = dict(env)
        env[ADDOPTS_WAS_ENV] = env.get("PYTEST_ADDOPTS", "")
        env["PYTEST_ADDOPTS"] = " ".join(filter(None, [env.get("PYTEST_ADDOPTS", ""), options,
                                                       f"-p {PLUGIN_MODULE}"]))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [env.get("PYTHONPATH", ""), str(self.path)]))
        env[CHANNEL_ENV] = f"{self.key_fd},{self.results_fd}"
        return env

    def started(self) -> None:
        """The step holds the descriptors now: close ours, so the pipe ends when the step does."""
        for fd in (self.key_fd, self.results_fd):
            _close(fd)
        self.key_fd = self.results_fd = -1

    def read(self) -> Results:
        self.started()
        self._done.set()
        self._thread.join(timeout=5)
        results = parse_results(verified_lines(bytes(self._data), self._key))
        results.selected = self.selected
        return results

    def remove(self) -> None:
        self.started()
        self._done.set()
        self._thread.join(timeout=5)
        if not self._thread.is_alive():
            _close(self._reader)
        shutil.rmtree(self.path, ignore_errors=True)


def _close(fd: int) -> None:
    if fd >= 0:
        try:
            os.close(fd)
        except OSError:
            pass


def verified_lines(data: bytes, key: bytes) -> list[bytes | None]:
    """The JSON of each line signed with ``key`` and numbered in order; None for any other line (a
    forged, altered, reordered or damaged one), and for each line missing before a later one."""
    lines: list[bytes | None] = []
    expected: dict[int, int] = {}  # pid -> the next line number
    for line in data.splitlines():
        body, _, mac = line.rpartition(b"\t")
        good = hmac.compare_digest(hmac.new(key, body, hashlib.sha256).hexdigest().encode("ascii"), mac)
        try:
            record = json.loads(body) if good else None
            pid, number = record["pid"], record["n"]
        except (ValueError, KeyError, TypeError):
            lines.append(None)
            continue
        missing = number - expected.get(pid, 0)
        if missing < 0:
            lines.append(None)  # a line sent twice
            continue
        lines.extend([None] * missing)
        expected[pid] = number + 1
        lines.append(body)
    return lines


@dataclass
class Results:
    """What our plugin recorded: each test's outcome by id, as pytest's terminal counts them."""

    tests: dict[str, str] = field(default_factory=dict)  # id -> passed/failed/error/skipped/xfailed/xpassed
    counts: dict[str, int] = field(default_factory=dict)
    deselected: list[str] = field(default_factory=list)
    started: bool = False  # a pytest session loaded our plugin
    complete: bool = False  # every session we saw start also finished
    exit_statuses: list[int] = field(default_factory=list)
    damaged_lines: int = 0
    slots: dict[str, str] = field(default_factory=dict)  # parametrized id -> its slot (testrun/id_slots.py)
    doctests: dict[str, str] = field(default_factory=dict)  # doctest id -> digest of its examples as collected
    selected: bool = False  # we ran a selection of the tests (``only``): the rest is left out on purpose

    def failing(self) -> list[str]:
        return sorted(t for t, o in self.tests.items() if o in FAILING)


def _status(current: str | None, when: str, outcome: str, xfail: bool) -> str | None:
    """One test's status after one more of its reports (setup, call, teardown)."""
    if outcome == "failed":
        return "failed" if when == "call" or current == "failed" else "error"
    if current in ("failed", "error"):
        return current
    if outcome == "skipped":
        return "xfailed" if xfail else "skipped"
    if outcome == "passed" and when == "call":
        return "xpassed" if xfail else "passed"
    return current


def _count(counts: dict[str, int], key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


def read_results(path: Path) -> Results:
    """Parse a file of the plugin's JSON lines, unsigned (results written by hand)."""
    try:
        return parse_results(path.read_bytes().splitlines())
    except OSError:
        return Results()


def representable(value):
    """``value`` with every string made valid UTF-8. pytest keeps the bytes of a file name that is not
    UTF-8 as lone surrogates (``test_caf\\udce9.py``), which no checkpoint, log or memory row can hold:
    such a byte becomes the escape ``\\xe9``, the same in every run (outside round 9 case 08: the
    session stopped with ``error`` at its first checkpoint)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            try:
                raw = value.encode("utf-8", errors="surrogateescape")
            except UnicodeEncodeError:  # a surrogate no file name gives (U+D800-U+DC7F)
                raw = value.encode("utf-8", errors="surrogatepass")
            return raw.decode("utf-8", errors="backslashreplace")
        return value
    if isinstance(value, list):
        return [representable(v) for v in value]
    if isinstance(value, dict):
        return {representable(k): representable(v) for k, v in value.items()}
    return value


def parse_results(lines: list[bytes | None]) -> Results:
    """Parse the plugin's JSON lines (None: a line that cannot be believed). Sessions that start while
    another is open (pytest run by a test in a subprocess) are ignored; sequential sessions of one
    command are merged."""
    results = Results()
    open_pid: int | None = None
    ignored: set[int] = set()
    finished = 0
    for line in lines:
        try:
            record = representable(json.loads(line))  # None raises TypeError: a damaged line
            kind, pid = record["e"], record["pid"]
        except (ValueError, KeyError, TypeError):
            results.damaged_lines += 1
            continue
        if kind == "start":
            if open_pid is not None and pid != open_pid:
                ignored.add(pid)
            else:
                open_pid, results.started = pid, True
            continue
        if pid in ignored or pid != open_pid:
            continue
        if kind == "report":
            test, when, outcome = str(record.get("id")), record.get("when"), record.get("outcome")
            if outcome not in ("passed", "failed", "skipped"):
                continue  # e.g. pytest-rerunfailures' "rerun": the final report decides
            results.tests[test] = _status(results.tests.get(test), when, outcome, bool(record.get("xfail")))
            if record.get("sub") and outcome != "failed":
                continue  # pytest counts a subtest that passed or skipped apart ("7 subtests passed"), a failed one as failed
            if outcome == "failed":
                _count(results.counts, "failed" if when == "call" else "errors")
            elif outcome == "skipped":
                _count(results.counts, "xfailed" if record.get("xfail") else "skipped")
            elif when == "call":
                _count(results.counts, "xpassed" if record.get("xfail") else "passed")
        elif kind == "collect":
            failed = record.get("outcome") == "failed"
            results.tests[str(record.get("id"))] = "error" if failed else "skipped"
            _count(results.counts, "errors" if failed else "skipped")
        elif kind == "collected":
            for item in record.get("slots") or []:
                if isinstance(item, list) and len(item) == 2 and all(isinstance(v, str) for v in item):
                    results.slots[item[0]] = item[1]
            for item in record.get("doctests") or []:
                if isinstance(item, list) and len(item) == 2 and all(isinstance(v, str) for v in item):
                    results.doctests[item[0]] = item[1]
        elif kind == "deselected":
            ids = [str(i) for i in record.get("ids") or []]
            results.deselected.extend(ids)
            results.counts["deselected"] = results.counts.get("deselected", 0) + len(ids)
        elif kind == "finish":
            results.exit_statuses.append(int(record.get("exitstatus", -1)))
            finished += 1
            open_pid = None
    results.tests = {t: o for t, o in results.tests.items() if o is not None}
    results.complete = results.started and open_pid is None and finished > 0 and not results.damaged_lines
    results.counts = {k: results.counts[k] for k in COUNT_KEYS if results.counts.get(k)}
    return results


# -- what observe saw -------------------------------------------------------------------------------

@dataclass
class Baseline:
    """Observe's run, which later runs are judged against (from its RunRecord)."""

    evidence: str  # "pytest" or "exit_code"
    tests: dict[str, str] = field(default_factory=dict)
    complete: bool = False
    environment: Any = None  # manifest.Environment, or None when observe recorded none
    slots: dict[str, str] = field(default_factory=dict)  # parametrized id -> slot, at observe
    unstable: list[str] = field(default_factory=list)  # functions whose ids differed between observe's collections
    doctests: dict[str, str] = field(default_factory=dict)  # doctest id -> digest of its examples, at observe

    @property
    def failing(self) -> list[str]:
        return sorted(t for t, o in self.tests.items() if o in FAILING)


def observed(state: dict) -> Baseline | None:
    """The baseline from ``state``: observe's run record; None when there is none (a state built by
    hand, or a session observed by a version that recorded no per-test results)."""
    from astra_memory.testrun.manifest import Environment

    for run in state.get("test_runs") or []:
        if run.get("phase") == "observe" and run.get("evidence"):
            record = run.get("environment")
            return Baseline(evidence=run["evidence"], tests=dict(run.get("tests") or {}),
                            complete=bool(run.get("results_complete")),
                            environment=Environment.from_record(record) if record else None,
                            slots=dict(run.get("slots") or {}), unstable=list(run.get("unstable_ids") or []),
                            doctests=dict(run.get("doctests") or {}))
    return None


# -- the verdict ------------------------------------------------------------------------------------

@dataclass
class Verdict:
    passed: bool
    outcome: str
    findings: list[str]  # why it is not a pass (empty when it is)
    notes: list[str]  # what changed but does not fail the run (reported in the outcome)
    tests: dict[str, str]  # what the run record keeps: all ids at observe, else the ones that did not pass
    # why a run that is not a pass cannot be judged either way (tests of observe whose parametrized ids
    # are not run now and cannot be matched): such an end is not a failed attempt
    inconclusive: str | None = None


def _ids(ids: list[str]) -> str:
    shown = ", ".join(sorted(ids)[:MAX_IDS_SHOWN])
    return shown + (f" and {len(ids) - MAX_IDS_SHOWN} more" if len(ids) > MAX_IDS_SHOWN else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def counts_text(counts: dict[str, int]) -> str:
    text = f"{counts.get('passed', 0)} passed, {counts.get('failed', 0)} failed"
    for key in COUNT_KEYS[2:]:
        if counts.get(key):
            text += f", {_plural(counts[key], 'error')}" if key == "errors" else f", {counts[key]} {key}"
    return text


def _under(test: str, node: str) -> bool:
    """Whether ``test`` belongs to ``node`` (a test id, or a collected file or folder)."""
    return test == node or not node or test.startswith(node + "::") or test.startswith(node.rstrip("/") + "/")


def _now_passes(node: str, tests: dict[str, str]) -> str:
    """``passed``, or what became of a test (or collection node) that failed at observe."""
    if node in tests:
        return tests[node]
    if "::" not in node:  # a file or folder that failed to collect: each of its tests must now run and pass
        mine = {o for t, o in tests.items() if _under(t, node)}
        if not mine:
            return "no test"
        failing = sorted(mine & set(FAILING))
        return failing[0] if failing else ("passed" if mine == {"passed"} else sorted(mine - {"passed"})[0])
    # not run: say why when its file (or folder) was skipped or failed to collect
    parents = [t for t in tests if "::" not in t and t and _under(node, t)]
    return tests[max(parents, key=len)] if parents else "not run"


def judged_by_exit_code_only(outcome: str) -> bool:
    """Whether an outcome string (a run's, a stored fix's) was judged by the exit code alone."""
    return EXIT_CODE_ONLY in outcome


def nothing_failed(*, evidence: str, complete: bool, tests: Mapping[str, str], exit_code: int | None) -> bool:
    """A run in which no test failed: pytest's complete per-test results, none failing, exit code 0
    (observe's "nothing to fix" for a run that is no pass for another reason)."""
    return evidence == "pytest" and complete and exit_code == 0 and not any(o in FAILING for o in tests.values())


def judge(*, command: str, exit_code: int, ending: str, results: Results | None, baseline: Baseline | None,
          printed: dict[str, int], problems: list[str]) -> Verdict:
    """Whether a run passed, and its outcome string. ``results`` is None for exit-code evidence;
    ``printed`` is pytest's summary line as parsed from the output; ``problems`` are findings from
    outside the results (timeout, output bound, environment changes)."""
    if results is None:
        head = (f"exit code {exit_code} from `{command}` {EXIT_CODE_ONLY}: not a pytest run, no per-test results"
                + (f"; it printed {counts_text(printed)}" if printed else "") + ")")
        findings = list(problems) or ([f"exit code {exit_code}"] if exit_code != 0 else [])
        return Verdict(not findings, head + (f"; not a pass: {'; '.join(problems)}" if problems else ""),
                       findings, [], {})
    tests, counts = results.tests, results.counts
    findings: list[str] = []
    notes: list[str] = []
    failing_now = results.failing()
    inconclusive: str | None = None
    unjudgeable = 0
    if baseline is not None and baseline.evidence == "pytest":
        tests, notes = translate(tests, results.slots, baseline.slots, baseline.unstable)
        failing_now = sorted(t for t, o in tests.items() if o in FAILING)
        was_failing = baseline.failing
        became = {node: _now_passes(node, tests) for node in was_failing}
        fixed = [n for n, o in became.items() if o == "passed"]
        head = (f"{len(fixed)} of {len(was_failing)} failing tests now pass" if was_failing
                else "no test failed at observe")
        for what in sorted(set(became.values()) - {"passed"}):
            ids = _ids([n for n, o in became.items() if o == what])
            label = {"failed": "still failing", "error": "still failing (error)", "not run": "not run now",
                     "no test": "failed to collect at observe, now collects no test"}.get(
                what, f"failed at observe, now {what}")
            findings.append(f"{label}: {ids}")
        unmatched = [n for n, o in became.items() if o == "not run" and n in baseline.slots]
        was_passing = [t for t, o in baseline.tests.items() if o == "passed"]
        gone = [] if results.selected else [t for t in was_passing if t not in tests]
        if gone:  # a change that stops a passing test from running hides what it would have caught
            findings.append(f"passed at observe, not run now: {_ids(gone)}")
        unjudged = [t for t in gone if t in baseline.slots]  # parametrized: its id may be what changed
        if ((unmatched or unjudged) and len(unjudged) == len(gone)
                and [o for o in became.values() if o != "passed"] == ["not run"] * len(unmatched)):
            inconclusive = (f"parametrized tests of observe are not run now under their ids and no "
                            f"test holds their function and parameter position: {_ids(unmatched + unjudged)}")
            unjudgeable = len(findings)  # the findings so far are only these ids
        new_failures = [t for t in failing_now if t not in became]
        if new_failures:
            findings.append(f"failing now: {_ids(new_failures)}")
        rewritten = sorted(t for t, d in baseline.doctests.items() if results.doctests.get(t, d) != d)
        if rewritten:  # the test is what ran at observe, or it is another test (a docstring set at import)
            findings.append(f"doctests whose examples are not those of observe (changed when the code ran): "
                            f"{_ids(rewritten)}")
        off = [t for t in was_passing if tests.get(t) in ("skipped", "xfailed")]
        if off:
            findings.append(f"passed at observe, now skipped: {_ids(off)}")
        new = [t for t in tests if t not in baseline.tests and "::" in t]
        if new and baseline.tests:
            notes.append(f"{_plural(len(new), 'test')} new since observe")
        kept = {t: o for t, o in tests.items() if o != "passed" or t in became}
    else:
        head = _plural(len(failing_now), "failing test") if failing_now else "no failing tests"
        if failing_now:
            findings.append(f"failing: {_ids(failing_now)}")
        kept = dict(tests)
    # Whether the results can be believed at all.
    statuses = sorted(set(results.exit_statuses))
    if not results.started:
        findings.append("pytest wrote no results (our plugin was not loaded, or the process ended before "
                        "pytest configured it)")
    elif not results.complete:
        findings.append(f"the results are incomplete: the test process ended before pytest finished "
                        f"({_plural(len(tests), 'test result')} read)")
    elif exit_code == 0 and statuses != [0]:
        findings.append(f"the process exited with code 0 but pytest's exit status was {statuses[-1]} "
                        "(something ended the process after pytest: os._exit, an atexit hook)")
    elif exit_code != 0 and statuses == [0] and ending == "exited":
        findings.append(f"pytest's exit status was 0 but the process exited with code {exit_code}")
    if results.complete and printed and printed != counts:
        findings.append(f"pytest printed {counts_text(printed)} but its per-test results say {counts_text(counts)}")
    if results.started and not counts.get("passed"):
        findings.append("no test passed")
    findings.extend(problems)
    if not findings and exit_code != 0:
        findings.append(f"exit code {exit_code}")
    findings = list(dict.fromkeys(findings))
    if inconclusive and len(findings) == unjudgeable:  # nothing else is wrong with the run: it cannot be judged
        findings[-1] += " (inconclusive: ids that cannot be matched)"
    else:
        inconclusive = None
    outcome = f"{head}; {counts_text(counts)}" + "".join(f"; {note}" for note in notes)
    outcome += f"; not a pass: {'; '.join(findings)}" if findings else ""
    return Verdict(not findings, outcome, findings, notes, kept, inconclusive)

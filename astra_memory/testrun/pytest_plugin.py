"""Our pytest plugin: every test's outcome, by id, written to a results channel the tests cannot find.

Not imported by the agent. testrun/results.py copies this file into a new directory for every test
run (as ``astra_pytest_results.py``) and has pytest load it with ``-p astra_pytest_results``
(PYTEST_ADDOPTS). Pytest and the standard library only; it must work in whatever interpreter the
project's tests use.

The channel (issue 32, class 2) is two inherited, unnamed pipes whose numbers are in
``ASTRA_RESULTS_CHANNEL``: ``KEY_FD,RESULTS_FD``. At import, which pytest does for ``-p`` plugins
before any conftest or test module, the plugin removes that variable from the environment, reads a
per-run key from KEY_FD (written by the agent and closed: nothing is left to read after us) and
closes it, and makes RESULTS_FD not inheritable. Each line is the JSON record (with ``n``, its
number, from 0) and the HMAC-SHA256 of it under the key. Code the tests import can write to the
results pipe, or read lines from it, but cannot make a line the agent accepts: it has no key, and
a missing line breaks the numbering. PYTEST_ADDOPTS is set back to what the user had
(``ASTRA_PYTEST_ADDOPTS_WAS``), so a pytest a test starts gets neither our plugin nor our
configuration pins. Without the channel variable (a pytest started by a test, a second
pytest of a shell script) the plugin records nothing.

Each line is written with a single ``write`` as it happens, so a process that ends before pytest
finishes (``os._exit``, a crash, a kill) leaves results without their ``finish`` line, which never
counts as a pass. A pytest session started while another one of this process is still open
records nothing: only the outer session counts.
"""

import hashlib
import hmac
import json
import os

import pytest

CHANNEL_ENV = "ASTRA_RESULTS_CHANNEL"
ADDOPTS_WAS_ENV = "ASTRA_PYTEST_ADDOPTS_WAS"
KEY_BYTES = 32


def _restore_addopts():
    """PYTEST_ADDOPTS as the user had it: pytest has read ours already, and a pytest that a test starts
    must not get our configuration pins or plugin."""
    if ADDOPTS_WAS_ENV not in os.environ:
        return
    was = os.environ.pop(ADDOPTS_WAS_ENV)
    if was:
        os.environ["PYTEST_ADDOPTS"] = was
    else:
        os.environ.pop("PYTEST_ADDOPTS", None)


def _take_channel():
    _restore_addopts()
    value = os.environ.pop(CHANNEL_ENV, "")
    try:
        key_fd, results_fd = (int(part) for part in value.split(","))
    except ValueError:
        return None
    try:
        key = os.read(key_fd, KEY_BYTES + 1)
        os.close(key_fd)
        os.set_inheritable(results_fd, False)
    except OSError:
        return None
    return (key, results_fd) if len(key) == KEY_BYTES else None


_CHANNEL = [_take_channel()]  # at import: before any conftest or test module is imported
# when present: the only test ids (or files, folders) to run; every other test is deselected
_SELECT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "select.json")
_ACTIVE = []  # the recorder of this process's outer session, while it runs


class _Recorder:
    def __init__(self, key, fd):
        self._key, self._fd, self._next = key, fd, 0

    def write(self, **record):
        if self._fd is None:
            return
        record.update(pid=os.getpid(), n=self._next)
        self._next += 1
        body = json.dumps(record, sort_keys=True).encode("utf-8")
        mac = hmac.new(self._key, body, hashlib.sha256).hexdigest().encode("ascii")
        try:
            os.write(self._fd, body + b"\t" + mac + b"\n")
        except OSError:  # the tests closed or replaced our descriptor: the results stay incomplete
            self._fd = None

    def pytest_collectreport(self, report):
        if report.failed or report.skipped:
            self.write(e="collect", id=report.nodeid, outcome=report.outcome)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        if not os.path.exists(_SELECT):
            return
        with open(_SELECT, encoding="utf-8") as handle:
            nodes = json.load(handle)
        exact = set(nodes)
        prefixes = tuple(p for n in nodes if "::" not in n for p in (n + "::", n.rstrip("/") + "/"))
        dropped = [i for i in items if i.nodeid not in exact and not i.nodeid.startswith(prefixes)]
        if dropped:
            items[:] = [i for i in items if i.nodeid in exact or i.nodeid.startswith(prefixes)]
            config.hook.pytest_deselected(items=dropped)

    def pytest_collection_finish(self, session):
        # each parametrized item's slot: its function and its parameters' indices (testrun/id_slots.py);
        # each doctest's examples as collected (a docstring rewritten at import changes them)
        self.write(e="collected", slots=[[item.nodeid, slot] for item in session.items
                                         for slot in [_slot(item)] if slot],
                   doctests=[[item.nodeid, digest] for item in session.items
                             for digest in [_examples_digest(item)] if digest])

    def pytest_deselected(self, items):
        self.write(e="deselected", ids=[item.nodeid for item in items])

    def pytest_runtest_logreport(self, report):
        self.write(e="report", id=report.nodeid, when=report.when, outcome=report.outcome,
                   xfail=hasattr(report, "wasxfail"),  # a subtest: pytest 9's SubtestReport, pytest-subtests'
                   sub=type(report).__name__ in ("SubtestReport", "SubTestReport"))

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session, exitstatus):
        self.write(e="finish", exitstatus=int(exitstatus), collected=getattr(session, "testscollected", None))

    def pytest_unconfigure(self, config):
        if _ACTIVE and _ACTIVE[0] is self:
            _ACTIVE.clear()


def _examples_digest(item):
    """The SHA-256 of a doctest item's examples (source, expected output, expected exception), or None."""
    examples = getattr(getattr(item, "dtest", None), "examples", None)
    if not isinstance(examples, list):
        return None
    text = json.dumps([[getattr(e, "source", None), getattr(e, "want", None), getattr(e, "exc_msg", None)]
                       for e in examples], default=str)
    return hashlib.sha256(text.encode("utf-8", errors="replace")).hexdigest()


_SCALARS = (type(None), bool, int, float, complex, str, bytes)


def _canon(value, depth=0):
    """A text of ``value`` that is the same in every process: what it holds, not where it lives (an
    object's attributes, not its default repr with an address; a set's members sorted)."""
    if isinstance(value, _SCALARS):
        return repr(value)
    kind = f"{type(value).__module__}.{type(value).__qualname__}"
    if depth > 4:
        return kind
    if isinstance(value, (list, tuple)):
        return kind + "(" + ",".join(_canon(v, depth + 1) for v in list(value)[:100]) + ")"
    if isinstance(value, (set, frozenset)):
        return kind + "{" + ",".join(sorted(_canon(v, depth + 1) for v in list(value)[:100])) + "}"
    if isinstance(value, dict):
        pairs = sorted(f"{_canon(k, depth + 1)}:{_canon(v, depth + 1)}" for k, v in list(value.items())[:100])
        return kind + "{" + ",".join(pairs) + "}"
    if callable(value) and hasattr(value, "__qualname__"):
        return f"{kind}:{getattr(value, '__module__', '')}.{value.__qualname__}"
    attributes = getattr(value, "__dict__", None)
    if isinstance(attributes, dict):
        return kind + "(" + _canon(dict(attributes), depth + 1) + ")"
    return kind


def _values(params):
    try:
        text = _canon(dict(params))
    except Exception:  # a value that cannot be looked at: its type names it  # noqa: BLE001
        text = ",".join(f"{k}:{type(v).__qualname__}" for k, v in sorted(params.items()))
    return hashlib.sha256(text.encode("utf-8", errors="replace")).hexdigest()[:16]


def _slot(item):
    """``<function's node id>#<argname>=<index>,...~<values>`` for a parametrized item, else None:
    ``values`` is a digest of its parameters' values as they are in every process (``_canon``), so a
    slot whose values were swapped for another case's is another slot."""
    callspec = getattr(item, "callspec", None)
    indices = getattr(callspec, "indices", None)
    name, original = getattr(item, "name", ""), getattr(item, "originalname", None)
    if not isinstance(indices, dict) or not indices or not original or not item.nodeid.endswith(name):
        return None
    function = item.nodeid[:len(item.nodeid) - len(name)] + original
    params = getattr(callspec, "params", None)
    values = _values(params) if isinstance(params, dict) else "-"
    return function + "#" + ",".join(f"{key}={indices[key]}" for key in sorted(indices)) + "~" + values


def pytest_configure(config):
    if hasattr(config, "workerinput") or _ACTIVE or _CHANNEL[0] is None:  # xdist worker, nested, or no channel
        return
    key, fd = _CHANNEL[0]
    _CHANNEL[0] = None  # one session per channel
    recorder = _Recorder(key, fd)
    _ACTIVE.append(recorder)
    recorder.write(e="start", pytest=getattr(pytest, "__version__", "?"))
    config.pluginmanager.register(recorder, "astra-results-recorder")

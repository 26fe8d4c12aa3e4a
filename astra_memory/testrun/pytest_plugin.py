"""Our pytest plugin: every test's outcome, by id, appended to ``results.jsonl`` beside this file.

Not imported by the agent. testrun/results.py copies this file into a new directory outside the
workspace for every test run (as ``astra_pytest_results.py``) and has pytest load it with
``-p astra_pytest_results`` (PYTEST_ADDOPTS). Pytest and the standard library only; it must work
in whatever interpreter the project's tests use.

One JSON object per line, written with a single ``write`` as it happens, so a process that ends
before pytest finishes (``os._exit``, a crash, a kill) leaves a file without its ``finish`` line,
which never counts as a pass. A pytest session started while another one of this process tree is
still open (xdist workers, a test that runs pytest) records nothing: only the outer session counts.
"""

import json
import os

import pytest

_RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results.jsonl")
_ACTIVE = []  # the recorder of this process's outer session, while it runs


class _Recorder:
    def write(self, **record):
        # opened for each line: a test that closes or reuses file descriptors cannot lose our results
        record["pid"] = os.getpid()
        fd = os.open(_RESULTS, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, (json.dumps(record) + "\n").encode("utf-8"))
        finally:
            os.close(fd)

    def pytest_collectreport(self, report):
        if report.failed or report.skipped:
            self.write(e="collect", id=report.nodeid, outcome=report.outcome)

    def pytest_collection_finish(self, session):
        # each parametrized item's slot: its function and its parameters' indices (testrun/id_slots.py)
        self.write(e="collected", slots=[[item.nodeid, slot] for item in session.items
                                         for slot in [_slot(item)] if slot])

    def pytest_deselected(self, items):
        self.write(e="deselected", ids=[item.nodeid for item in items])

    def pytest_runtest_logreport(self, report):
        self.write(e="report", id=report.nodeid, when=report.when, outcome=report.outcome,
                   xfail=hasattr(report, "wasxfail"))

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session, exitstatus):
        self.write(e="finish", exitstatus=int(exitstatus), collected=getattr(session, "testscollected", None))

    def pytest_unconfigure(self, config):
        if _ACTIVE and _ACTIVE[0] is self:
            _ACTIVE.clear()


def _slot(item):
    """``<function's node id>#<argname>=<index>,...`` for a parametrized item, else None."""
    indices = getattr(getattr(item, "callspec", None), "indices", None)
    name, original = getattr(item, "name", ""), getattr(item, "originalname", None)
    if not isinstance(indices, dict) or not indices or not original or not item.nodeid.endswith(name):
        return None
    function = item.nodeid[:len(item.nodeid) - len(name)] + original
    return function + "#" + ",".join(f"{key}={indices[key]}" for key in sorted(indices))


def pytest_configure(config):
    if hasattr(config, "workerinput") or _ACTIVE:  # an xdist worker, or pytest run inside a test
        return
    recorder = _Recorder()
    _ACTIVE.append(recorder)
    recorder.write(e="start", pytest=getattr(pytest, "__version__", "?"))
    config.pluginmanager.register(recorder, "astra-results-recorder")

"""Issue 32 class 5: a failed attempt records the state it failed in, and only a judged run is one.

Real graph, real pytest subprocesses, real SQLite and PostgreSQL memory (hash embeddings). An
earlier session makes a test run plant a failing ``conftest.py`` and then makes exactly the right
fix, which fails there: a clean later session must not be refused that fix, while a session in the
same poisoned state still is. Inconclusive ends (a timeout, an environment change, a verdict that
cannot judge, no run at all) are never failed attempts. And a change is not confirmed as the fix of
a failure that does not show without it (a stale ``.pyc`` made observe fail).
"""

from __future__ import annotations

import importlib.util
import marshal
import os
from pathlib import Path

import pytest

from astra_memory.context import Context
from astra_memory.events import read_events
from astra_memory.nodes.attempt_log import counts_as_failed_attempt
from astra_memory.session.run import start_session
from astra_memory.stores.attempts import AttemptMemory
from astra_memory.testrun import run as testrun
from astra_memory.testrun import tested_state as digest
from tests.conftest import BACKENDS
from tests.helpers import ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH, PROJECT_TESTS, call, task_with_script

POISON = ("import pytest\n\n\n@pytest.fixture(autouse=True)\ndef _left_behind():\n"
          "    raise RuntimeError('left behind by an earlier test run')\n")
PLANT_LINES = ("import os\nimport pathlib\n"
               "_here = pathlib.Path(__file__).resolve().parent.parent / 'conftest.py'\n"
               f"_here.exists() or _here.write_text({POISON!r})\n")
# A test run of this change writes a conftest.py that makes every later run fail ...
PLANT = call("apply_edit", path="app/settings.py", old_text="import os\n", new_text=PLANT_LINES)
# ... and this takes the planting code out again: with ALPHA_FIX next, the change is exactly the right fix.
UNPLANT = call("apply_edit", path="app/settings.py", old_text=PLANT_LINES, new_text="import os\n")


def _fixed_sha(task) -> str:
    from astra_memory.workspace.files import sha256_text

    text = (Path(task["workspace"]) / "app/settings.py").read_text()
    return sha256_text(text.replace(ALPHA_FIX["args"]["old_text"], ALPHA_FIX["args"]["new_text"]))


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_the_right_fix_failed_in_a_poisoned_state_is_refused_only_in_that_state(agent, settings):
    first_task = task_with_script(settings, "t-poisoned", [ALPHA_DIAGNOSIS, PLANT, FINISH, UNPLANT, ALPHA_FIX, FINISH])
    first = start_session(agent, first_task)
    assert first["status"] == "failed" and (Path(first_task["workspace"]) / "conftest.py").read_text() == POISON
    right = [r for r in agent.memory.attempts.iter_records()
             if r.file_states["app/settings.py"][1] == _fixed_sha(first_task)]
    assert len(right) == 1 and right[0].end == "tests_failed"  # the right fix, recorded as failed: in that state
    assert len(right[0].failed_in) == 1

    # The same state (the conftest.py left behind, everything else as it was): still refused.
    poisoned = task_with_script(settings, "t-same-state", [ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH])
    (Path(poisoned["workspace"]) / "conftest.py").write_text(POISON)
    again = start_session(agent, poisoned, context=Context(replay=False))
    assert [r["attempt_id"] for r in again["repeats_refused"]] == [right[0].attempt_id]

    # A clean session: the right fix is applied, passes on its own and is stored.
    clean = start_session(agent, task_with_script(settings, "t-clean", [ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH]),
                          context=Context(replay=False))
    assert not clean.get("repeats_refused"), clean["repeats_refused"]
    assert clean["status"] == "fixed" and clean["stored_memory_id"]


def test_an_attempt_gates_only_in_a_state_it_failed_in_and_an_unknown_state_never(store):
    attempts = AttemptMemory(store)
    change = {"m.py": ["0" * 64, "1" * 64]}
    s, t = "a" * 64, "b" * 64
    asked = []

    def now(state):
        return lambda: asked.append(state) or state

    def record(state, session="s1"):
        return attempts.record(project="p", failing_tests=["t::a"], symptom="KeyError: 'x'", error_type="KeyError",
                               diff="--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n", file_states=change,
                               end="tests_failed", outcome="1 failed", still_failing=["t::a"], newly_failing=[],
                               session_id=session, state=state)

    def repeat(state):
        return attempts.repeat_of(project="p", failing_tests=["t::a"], file_states=change, state_now=now(state))

    first = record(s)
    assert first.failed_in == [s] and repeat(s).attempt_id == first.attempt_id and repeat(t) is None
    assert record(t, "s2").failed_in == [s, t] and repeat(t) is not None  # failed in both: gates in both

    # A record written before states were kept (no ``failed_in``): unknown state, never refuses.
    value = first.to_store_value()
    value.pop("failed_in")
    store.put(attempts.namespace, first.attempt_id, value, index=["embed_text"])
    old = attempts.get(first.attempt_id)
    assert old is not None and old.failed_in == []
    asked.clear()
    assert repeat(s) is None and asked == []  # not even asked: the project is not read for it
    assert [h.record.attempt_id for h in attempts.delivered("KeyError", project="p", failing_tests=["t::a"])] \
        == [first.attempt_id]  # still shown


def test_an_imported_records_states_never_become_this_installations_own(store):
    from astra_memory.stores.attempts import merged

    attempts = AttemptMemory(store)
    own = attempts.record(project="p", failing_tests=["t::a"], symptom="KeyError", error_type="KeyError",
                          diff="--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n",
                          file_states={"m.py": ["0" * 64, "1" * 64]}, end="tests_failed", outcome="1 failed",
                          still_failing=[], newly_failing=[], session_id="s-own", state="c" * 64)
    from_file = own.model_copy(update={"imported": True, "failed_in": ["d" * 64]})
    assert merged(from_file, own).failed_in == ["c" * 64] and not merged(from_file, own).imported
    assert merged(own, from_file, keep_existing=True).failed_in == ["c" * 64]


def test_the_state_is_the_test_machinery_and_files_around_the_change(tmp_path):
    run_dir = tmp_path / "run"
    for name in ("workspace", "copy"):
        (run_dir / name / "tests" / "data").mkdir(parents=True)
        (run_dir / name / "app.py").write_text("x = 1\n")
        (run_dir / name / "tests" / "test_app.py").write_text("def test(): pass\n")
        (run_dir / name / "tests" / "data" / "case.json").write_text("{}")
    ws, copy = run_dir / "workspace", run_dir / "copy"

    def state(root, **kw):
        return digest.tested_state(root, command="python -m pytest", env={"A": "1"}, **kw)

    base = state(ws)
    assert len(base) == 64 and state(copy) == base  # siblings in the same state agree
    (copy / "app.py").write_text("x = 2\n")
    assert state(copy) != base and state(copy, leave_out=["app.py"]) == state(ws, leave_out=["app.py"])
    (ws / ".pytest_cache").mkdir()
    (ws / ".pytest_cache" / "v").write_text("cache")
    (ws / "notes.txt").write_text("not part of the tests")
    assert state(ws) == base
    for planted in (ws / "conftest.py", ws / "tests" / "data" / "case.json", run_dir / "tox.ini"):
        before = state(ws)
        planted.write_text("[pytest]\naddopts = -p evil\n")
        assert state(ws) != before, planted
    assert digest.tested_state(ws, command="pytest -x", env={"A": "1"}) != state(ws)
    assert digest.tested_state(ws, command="python -m pytest", env={"A": "2"}) != state(ws)


# -- only a judged run is a failed attempt --------------------------------------------------------------

def _run(**changes) -> testrun.TestRun:
    fields = {"command": "python -m pytest", "exit_code": 1, "passed": False, "counts": {"failed": 1},
              "output": "1 failed", "duration_s": 0.1, "outcome": "0 of 1 failing tests now pass"}
    return testrun.TestRun(**{**fields, **changes})


def test_counts_as_failed_attempt_only_for_a_run_that_judged_the_change():
    assert counts_as_failed_attempt(_run())
    assert not counts_as_failed_attempt(None)  # never ran (the fresh copy could not be built)
    assert not counts_as_failed_attempt(_run(passed=True, exit_code=0))
    assert not counts_as_failed_attempt(_run(timed_out=True, exit_code=124))
    assert not counts_as_failed_attempt(_run(environment_changes=["/venv/lib/site-packages/x.pth"]))
    assert not counts_as_failed_attempt(_run(inconclusive="ids not run: t[0]"))


def test_a_timed_out_run_is_not_a_failed_attempt(agent, settings):
    slow = call("apply_edit", path="app/settings.py", old_text="import os\n",
                new_text="import os\nimport time\n\ntime.sleep(300)\n")
    task = task_with_script(settings, "t-slow", [ALPHA_DIAGNOSIS, slow, FINISH])
    # observe's run takes about a second (a few on a loaded machine); the edited one sleeps 300 s
    final = start_session(agent, task, context=Context(test_timeout_s=10))
    assert final["test_runs"][-1]["phase"] == "test" and final["test_runs"][-1]["timed_out"]
    assert final["status"] != "fixed"
    assert final["attempt_records"] == [] and list(agent.memory.attempts.iter_records()) == []
    assert "attempt_not_counted" in [e["event"] for e in read_events(task["run_dir"])]


# -- the bug must show without the change ---------------------------------------------------------------

def _stale_pyc(source: Path, buggy: str) -> None:
    """A bytecode cache of ``buggy`` that Python takes for ``source``'s (its mtime and size in the header)."""
    st = source.stat()
    cache = Path(importlib.util.cache_from_source(str(source)))
    cache.parent.mkdir(exist_ok=True)
    header = importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little") + \
        (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little") + (st.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    cache.write_bytes(header + marshal.dumps(compile(buggy, str(source), "exec")))


def test_a_change_is_not_confirmed_as_the_fix_of_a_failure_that_does_not_show_without_it(agent, settings):
    touch = call("apply_edit", path="app/settings.py", old_text="import os\n", new_text="import os  # settings\n")
    task = task_with_script(settings, "t-stale-pyc", [ALPHA_DIAGNOSIS, touch, FINISH])
    source = Path(task["workspace"]) / "app/settings.py"
    buggy = source.read_text()
    source.write_text(buggy.replace(ALPHA_FIX["args"]["old_text"], ALPHA_FIX["args"]["new_text"]))
    os.utime(source, (1_700_000_000, 1_700_000_000))
    _stale_pyc(source, buggy)  # observe imports the buggy bytecode; the source itself is already right
    final = start_session(agent, task)
    assert final["failure"]["failing_ids"]  # observe failed ...
    assert final["test_runs"][-1]["passed"]  # ... the touched source recompiles: the workspace passes ...
    assert final["status"] == "unconfirmed", final["reason"]  # ... but nothing was fixed: not stored
    assert "does not show in a fresh copy of the project without the session's edits" in final["reason"]
    assert final.get("stored_memory_id") is None and agent.memory.count() == 0
    assert final["attempt_records"] == []  # and not a failed attempt: the change was never judged
    (shown,) = [e for e in read_events(task["run_dir"]) if e["event"] == "confirm_unchanged"]
    assert shown["bug_shows"] is False


def test_the_run_without_the_change_runs_only_the_tests_that_failed(tmp_path):
    (tmp_path / "tests" / "unit").mkdir(parents=True)
    (tmp_path / "tests" / "test_a.py").write_text("def test_ok():\n    pass\n\n\ndef test_bug():\n    assert 1 == 2\n")
    (tmp_path / "tests" / "unit" / "test_b.py").write_text("def test_other():\n    pass\n")
    command = PROJECT_TESTS
    run = testrun.run_tests(tmp_path, command, only=["tests/test_a.py::test_bug"])
    assert run.counts.get("deselected") == 2 and not run.counts.get("passed")  # only test_bug ran
    assert run.tests == {"tests/test_a.py::test_bug": "failed"}
    folder = testrun.run_tests(tmp_path, command, only=["tests/unit"])  # a folder (or file): its tests
    assert folder.counts.get("passed") == 1 and folder.counts.get("deselected") == 2
    assert testrun.run_tests(tmp_path, command).counts.get("passed") == 2  # without ``only``: everything

"""Parametrized ids that change from process to process (issue 32, class 4, invariant (d)).

A real library (isodate 0.7.2) builds test ids from a set holding ``None``, whose hash varies per
process in Python 3.11: a correct fix ended ``failed`` ("not run now: ...") and was recorded as a
failed attempt. Here the ids come from ``object()`` reprs, which differ in every process. Such
ids are matched by test function and parameter position when, and only when, the instability is
shown on unchanged code (observe's two collections differ), by position and the parameters'
values, and the outcome says so; a run whose failing ids cannot be matched is inconclusive, not
failed.
"""

from __future__ import annotations

import json
from pathlib import Path

from astra_memory.session.run import start_session, workspace_task
from astra_memory.testrun.results import Baseline, judge, read_results
from tests.helpers import PROJECT_TESTS
from tests.test_parametrized_ids import RIGHT, SCRIPT, clamp_project  # the same clamp and its fix

TEST = '''import pytest

from app.clamp import clamp


@pytest.mark.parametrize("value, expected", [(150, 99), (99, 99), (50, 50)],
                         ids=[f"case-{object()!r}" for _ in range(3)])
def test_clamp(value, expected):
    assert clamp(value, 0, 99) == expected
'''
PYTEST = PROJECT_TESTS
FUNCTION = "tests/test_clamp.py::test_clamp"


def _project(root: Path) -> Path:
    return clamp_project(root, TEST)


def test_a_fix_of_tests_with_unstable_ids_is_confirmed_by_position(agent, settings, tmp_path):
    task = {**workspace_task(_project(tmp_path / "clamps"), PYTEST, settings, "unstable-ids"), "script": SCRIPT,
            "approve_edits": False}
    final = start_session(agent, task)
    assert final["status"] == "fixed", final["reason"]
    observe = final["test_runs"][0]
    assert observe["unstable_ids"] == [FUNCTION]  # shown by observe's second collection
    assert "parametrized ids differ between two collections: " + FUNCTION in observe["outcome"]
    failing = [t for t, o in observe["tests"].items() if o == "failed"]
    assert sorted(observe["slots"][t].partition("~")[0] for t in failing) == [
        FUNCTION + f"#expected={i},value={i}" for i in (0, 1)]  # then a digest of the values
    note = "parametrized ids that differ between runs matched by test function and parameter position (3 tests)"
    for run in final["test_runs"][1:]:
        assert run["passed"] and note in run["outcome"], run["outcome"]
    assert note in final["confirm"]["outcome"]
    assert agent.memory.get(final["stored_memory_id"]).outcome == final["confirm"]["outcome"]


# -- the judge on written results -------------------------------------------------------------------

OLD, NEW = f"{FUNCTION}[case-<object object at 0x1>]", f"{FUNCTION}[case-<object object at 0x2>]"
OTHER = "tests/test_clamp.py::test_other"
START, FINISH = {"e": "start"}, {"e": "finish", "exitstatus": 0}


def _results(tmp_path, *records: dict):
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps({"pid": 7, **r}) + "\n" for r in records))
    return read_results(path)


def _report(test: str, outcome: str = "passed") -> dict:
    return {"e": "report", "id": test, "when": "call", "outcome": outcome, "xfail": False}


def _judge(results, baseline):
    return judge(command=PYTEST, exit_code=0, ending="exited", results=results, baseline=baseline,
                 printed=dict(results.counts), problems=[])


OBSERVED = Baseline("pytest", {OLD: "failed", OTHER: "passed"}, True, slots={OLD: FUNCTION + "#v=0"},
                    unstable=[FUNCTION])


def test_ids_that_differ_from_observe_are_matched_by_position(tmp_path):
    slot = {"e": "collected", "slots": [[NEW, FUNCTION + "#v=0"]]}
    verdict = _judge(_results(tmp_path, START, slot, _report(NEW), _report(OTHER), FINISH), OBSERVED)
    assert verdict.passed and verdict.inconclusive is None, verdict.outcome
    assert verdict.outcome == ("1 of 1 failing tests now pass; 2 passed, 0 failed; parametrized ids that differ "
                               "between runs matched by test function and parameter position (1 tests): "
                               f"{FUNCTION} (also between observe's two collections)")
    # ids that observe's two collections did not show unstable: differing now is the edits' doing
    shown_stable = Baseline("pytest", OBSERVED.tests, True, slots=OBSERVED.slots)
    unshown = _judge(_results(tmp_path, START, slot, _report(NEW), _report(OTHER), FINISH), shown_stable)
    assert not unshown.passed and unshown.inconclusive and f"not run now: {OLD}" in unshown.outcome
    # matched by position, the test still fails: a failure, not inconclusive
    failed = _judge(_results(tmp_path, START, slot, _report(NEW, "failed"), _report(OTHER), FINISH), OBSERVED)
    assert not failed.passed and failed.inconclusive is None and f"still failing: {OLD}" in failed.outcome


def test_ids_are_matched_by_position_only_when_they_differ(tmp_path):
    """Same ids as observe, slots moved: judged by id."""
    moved = {"e": "collected", "slots": [[OLD, FUNCTION + "#v=1"], [NEW, FUNCTION + "#v=0"]]}
    baseline = Baseline("pytest", {OLD: "failed", NEW: "passed"}, True,
                        slots={OLD: FUNCTION + "#v=0", NEW: FUNCTION + "#v=1"})
    verdict = _judge(_results(tmp_path, START, moved, _report(OLD), _report(NEW, "failed"), FINISH), baseline)
    assert not verdict.passed and f"failing now: {NEW}" in verdict.outcome and "position" not in verdict.outcome


def test_failing_ids_not_run_and_not_matched_are_inconclusive(tmp_path):
    """No slot recorded now (a pytest without callspec indices): the run cannot be judged either way."""
    verdict = _judge(_results(tmp_path, START, _report(NEW), _report(OTHER), FINISH), OBSERVED)
    assert not verdict.passed and verdict.inconclusive and "not run now" in verdict.inconclusive
    assert verdict.outcome.endswith(f"not a pass: not run now: {OLD} (inconclusive: ids that cannot be matched)")
    # a real failure beside it: not inconclusive
    also = _judge(_results(tmp_path, START, _report(NEW), _report(OTHER, "failed"), FINISH), OBSERVED)
    assert not also.passed and also.inconclusive is None


def test_an_inconclusive_run_says_so_in_its_record(tmp_path):
    """Real pytest, observe's slot gone (a position no test holds now): not a pass, inconclusive, and the
    run record keeps why."""
    from astra_memory.state import run_record
    from astra_memory.testrun.run import run_tests

    root = _project(tmp_path / "p")
    (root / "app" / "clamp.py").write_text("def clamp(value, low, high):\n" + RIGHT)
    baseline = Baseline("pytest", {OLD: "failed"}, True, slots={OLD: FUNCTION + "#expected=9,value=9"})
    run = run_tests(root, PYTEST, baseline=baseline)
    assert not run.passed and run.inconclusive and OLD in run.inconclusive
    assert run_record(run, phase="test", edits_seen=1)["inconclusive"] == run.inconclusive


SWAP_PROJECT = {
    "app/__init__.py": "",
    "app/calc.py": "def add(a, b):\n    return a + b - 1 if b >= 5 else a + b\n",
    "app/examples.py": ("class Example:\n    def __init__(self, a, b, want):\n        self.a, self.b, self.want = a, b, want\n"
                        "\n\nEXAMPLES = [Example(1, 1, 2), Example(2, 3, 5), Example(10, 5, 15)]\n"),
}


def _swap_session(agent, settings, tmp_path, name: str, ids: str):
    from tests.helpers import call

    root = tmp_path / name
    for rel, text in SWAP_PROJECT.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "tests").mkdir()
    (root / "tests" / "test_calc.py").write_text(
        "import pytest\n\nfrom app.calc import add\nfrom app.examples import EXAMPLES\n\n\n"
        f"@pytest.mark.parametrize('ex', EXAMPLES, ids={ids})\n"
        "def test_add(ex):\n    assert add(ex.a, ex.b) == ex.want\n")
    swap = call("apply_edit", path="app/examples.py", old_text="Example(10, 5, 15)]", new_text="Example(2, 3, 5)]")
    script = [call("state_diagnosis", error_type="AssertionError", cause="An example expects the wrong sum.",
                   files=["app/examples.py"]), swap] + [call("finish", fix_description="Corrected the examples.",
                                                             error_type="AssertionError")] * 3
    task = {**workspace_task(root, PYTEST, settings, name), "script": script, "approve_edits": False}
    return start_session(agent, task)


def test_a_failing_case_swapped_for_a_passing_one_is_not_its_fix(agent, settings, tmp_path):
    """Outside round 4, case 03: the failing case of the source's data (Example(10, 5, 15)) replaced by a
    copy of a passing one, add() untouched. With ids from default reprs (unstable, shown by observe) it
    was matched by position and stored; with ids built from the values it was stored too, because
    the edit itself made the ids differ and that counted as instability. Neither passes now."""
    for name, ids in (("swap-unstable", "str"), ("swap-stable", "lambda e: f'{e.a}-{e.b}-{e.want}'")):
        final = _swap_session(agent, settings, tmp_path, name, ids)
        assert final["status"] != "fixed" and final.get("stored_memory_id") is None, (name, final["status"])
        test = next(r for r in final["test_runs"] if r["phase"] == "test")
        assert not test["passed"] and "not run now" in test["outcome"], (name, test["outcome"])
    assert agent.memory.count() == 0

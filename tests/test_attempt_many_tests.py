"""An attempt on a failure with more failing tests than a record keeps (50): keyed on the tests it
keeps, so this installation's own export imports back (the import recomputes every id)."""

from __future__ import annotations

import json

from astra_memory.backends.memory_only import open_memory
from astra_memory.stores.attempt_record import MAX_TESTS, failure_key
from tests.conftest import cli_env, run_cli

DIFF = "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
TESTS = [f"tests/test_m.py::test_case_{n:02d}" for n in range(60)]


def _record(memory, tests=TESTS):
    return memory.attempts.record(
        project="p", failing_tests=list(reversed(tests)), symptom="AssertionError: x", error_type="AssertionError",
        diff=DIFF, file_states={"m.py": ["0" * 64, "1" * 64]}, end="tests_failed", outcome="60 failed",
        still_failing=[], newly_failing=[], session_id="s1", state="2" * 64)


def test_a_60_test_attempt_is_keyed_on_the_50_it_keeps_and_round_trips(tmp_path):
    with open_memory() as memory:
        record = _record(memory)
    assert record.failing_tests == sorted(TESTS)[:MAX_TESTS]
    assert record.failure_key == failure_key("p", record.failing_tests) == failure_key("p", TESTS)

    exported = tmp_path / "out.jsonl"
    assert run_cli("memory", "export", str(exported), env=cli_env()).returncode == 0
    other_home = cli_env(ASTRA_HOME=str(tmp_path / "other-home"))
    imported = run_cli("memory", "import", str(exported), "--json", env=other_home)
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout)["attempts"] == 1
    shown = run_cli("memory", "show", record.attempt_id, "--json", env=other_home)
    assert json.loads(shown.stdout)["failure_key"] == record.failure_key


def test_the_same_60_tests_in_another_order_are_the_same_attempt(tmp_path):
    with open_memory() as memory:
        first = _record(memory)
        again = _record(memory, tests=TESTS[30:] + TESTS[:30])
        assert again.attempt_id == first.attempt_id and again.times_tried == 1  # one session, once
        assert memory.attempts.repeat_of(project="p", failing_tests=TESTS,
                                         file_states={"m.py": ["0" * 64, "1" * 64]},
                                         state_now=lambda: "2" * 64).attempt_id == first.attempt_id

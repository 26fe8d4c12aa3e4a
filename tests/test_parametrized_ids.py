"""Parametrized test ids survive storage whole (issue 22, section 2: a query with
``clamp [test_args4->99%]`` was shown as ``failing tests: clamp ; clamp ``). A real failing run with
ids holding spaces, brackets, ``%``, ``->`` and a backslash; the fix is confirmed and stored; the
record and ``memory show`` keep every id whole."""

from __future__ import annotations

import json
from pathlib import Path

from astra_memory.session.run import start_session, workspace_task
from tests.conftest import cli_env, run_cli
from tests.helpers import PROJECT_TESTS, call

IDS = ["test_args4->99%", "at [high] 99", "100% -> 99", "back\\slash [/] 99"]
NODE_IDS = [i.replace("\\", "\\\\") for i in IDS]  # pytest writes a backslash in an id escaped, as two
TEST = f'''import pytest

from app.clamp import clamp


@pytest.mark.parametrize("value, expected", [(150, 99), (99, 99), (100, 99), (120, 99), (50, 50)],
                         ids={IDS + ["in range"]!r})
def test_clamp(value, expected):
    assert clamp(value, 0, 99) == expected
'''
BUG = "    return max(low, min(value, high - 1))\n"
RIGHT = "    return max(low, min(value, high))\n"
SCRIPT = [
    call("state_diagnosis", error_type="AssertionError", cause="clamp() caps at high - 1 instead of high.",
         files=["app/clamp.py"]),
    call("apply_edit", path="app/clamp.py", old_text=BUG, new_text=RIGHT),
    call("finish", fix_description="clamp() caps values at high itself.", error_type="AssertionError"),
]
SHOWN = [f"clamp [{test_id}]" for test_id in NODE_IDS]  # the failing tests, in words, with their ids


def clamp_project(root: Path, test: str = TEST) -> Path:
    """The clamp project with its bug, ``test`` its tests/test_clamp.py."""
    (root / "app").mkdir(parents=True)
    (root / "app" / "__init__.py").write_text("")
    (root / "app" / "clamp.py").write_text("def clamp(value, low, high):\n" + BUG)
    (root / "tests").mkdir()
    (root / "tests" / "test_clamp.py").write_text(test)
    return root


def test_parametrized_ids_are_stored_and_shown_whole(agent, settings, tmp_path):
    task = {**workspace_task(clamp_project(tmp_path / "clamps"), PROJECT_TESTS,
                             settings, "clamp-ids"), "script": SCRIPT, "approve_edits": False}
    final = start_session(agent, task)
    assert final["status"] == "fixed", final["reason"]
    failing = sorted(t for t, result in final["test_runs"][0]["tests"].items() if result == "failed")
    assert failing == sorted(f"tests/test_clamp.py::test_clamp[{test_id}]" for test_id in NODE_IDS)  # pytest's ids

    record = agent.memory.get(final["stored_memory_id"])
    for text in SHOWN:
        assert text in record.symptom and text in final["memory"]["query"]
    names = next(line for line in record.symptom.splitlines() if line.startswith("failing tests: "))
    assert "clamp ;" not in names and not names.rstrip().endswith("clamp")  # no id cut before its parameters
    # the ids line names the test once, without its parameters (a parametrized test's cases are one test)
    assert "failing test ids: tests/test_clamp.py::test_clamp" in record.symptom.splitlines()

    env = cli_env(COLUMNS="200")
    shown = run_cli("memory", "show", record.memory_id, env=env)
    assert shown.returncode == 0, shown.stderr
    for text in SHOWN:
        assert text in shown.stdout, shown.stdout
    as_json = json.loads(run_cli("memory", "show", record.memory_id, "--json", env=env).stdout)
    assert as_json["symptom"] == record.symptom

"""A failed attempt's "newly failing" tests are tests that fail now and did not before: never a test
that was skipped (or xfailed) before the session and still is. The new-user run on toolz recorded
its one skipped test (`test_compose_annotations_formats`, skipped below Python 3.14) as newly failing
after each wrong edit, and the next session's model was shown that as the attempt's damage."""

from __future__ import annotations

from pathlib import Path

from astra_memory.context import Context
from astra_memory.scenarios import load_scenario
from astra_memory.session.run import start_session, workspace_task
from tests.helpers import ALPHA_DIAGNOSIS, FINISH, PROJECT_TESTS, call

WRONG = call("apply_edit", path="app/settings.py", old_text="if origin]", new_text="if origin and origin]")
QUIET = '''import pytest


@pytest.mark.skip(reason="not on this Python")
def test_skipped_here():
    assert False


@pytest.mark.xfail(reason="a known bug")
def test_known_bug():
    assert False
'''


def test_a_skipped_or_xfailed_test_is_not_newly_failing(agent, settings, tmp_path: Path):
    project = tmp_path / "shop"
    load_scenario("alpha").copy_to(project)
    (project / "tests" / "test_quiet.py").write_text(QUIET, encoding="utf-8")
    task = workspace_task(project, PROJECT_TESTS, settings, "skipped-not-new")
    task["script"] = [ALPHA_DIAGNOSIS, WRONG, FINISH]
    final = start_session(agent, task, context=Context(approve_edits=False, max_attempts=1))
    assert final["status"] == "failed"
    (attempt_id,) = set(final["attempt_records"])
    record = agent.memory.attempts.get(attempt_id)
    assert record.still_failing and all("test_cors.py" in t for t in record.still_failing)
    assert record.newly_failing == [], record.newly_failing

"""Replay tries only hits whose files are in this workspace and whose match is strong, and says why it
skipped each other hit, in words, on screen, in the events and in the report (issue 22, section 5:
an unrelated project's fix at score 0.27 was tried and failed with ``'app' does not exist``)."""

from __future__ import annotations

import difflib
import json
import shutil
from pathlib import Path

from astra_memory.rules.replay_candidates import REPLAY_MIN_SCORE, why_not_replayed
from astra_memory.scenarios import load_scenario
from astra_memory.session.run import start_session, workspace_task
from astra_memory.workspace.files import Workspace
from tests.conftest import cli_env, run_cli
from tests.helpers import PROJECT_TESTS

TEST_COMMAND = PROJECT_TESTS
SETTINGS = "app/settings.py"
BROKEN = '    return [origin for origin in raw.split(",") if origin]\n'
FIXED = '    return [origin.strip() for origin in raw.split(",") if origin.strip()]\n'
OUTCOME = "pytest passed with exit code 0 (4 passed)"


def _diff(before: str, after: str, path: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), f"a/{path}", f"b/{path}"))


def corsgate(tmp_path: Path) -> Path:
    target = tmp_path / "copies" / "corsgate"
    shutil.copytree(load_scenario("alpha").template, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def store(agent, *, symptom: str, diff: str, path: str, project: str, session: str):
    return agent.memory.store_fix_memory("Strip whitespace around origins.", "AssertionError", [path], OUTCOME,
                                         confirmed_outcome=OUTCOME, symptom=symptom, diff=diff,
                                         session_id=session, project=project)


def test_the_rule_names_each_reason(agent, tmp_path):
    project = corsgate(tmp_path)
    text = (project / SETTINGS).read_text()
    here = store(agent, symptom="AssertionError origins", diff=_diff(text, text.replace(BROKEN, FIXED), SETTINGS),
                 path=SETTINGS, project="corsgate", session="s1")
    elsewhere = store(agent, symptom="AssertionError origins", path="app/x.py", project="shop", session="s2",
                      diff=_diff("a\nb\n", "a\nc\n", "app/x.py") + _diff("a\n", "b\n", "lib/y.py"))
    ws = Workspace(project)
    assert why_not_replayed(here, REPLAY_MIN_SCORE, ws) == ""  # the threshold itself is strong enough
    assert why_not_replayed(here, 0.4999, ws) == "match 0.49 is below 0.5 (replay tries only strong matches)"
    assert why_not_replayed(here, 0.27, ws).startswith("match 0.27 is below 0.5")
    assert why_not_replayed(elsewhere, 0.99, ws) == "its files (app/x.py, lib/y.py) are not in this workspace"
    (project / "app" / "x.py").write_text("a\nb\n")
    assert why_not_replayed(elsewhere, 0.99, ws) == "its file lib/y.py is not in this workspace"
    later = "0f0e0d0c-0b0a-4908-8706-050403020100"
    assert why_not_replayed(here.model_copy(update={"status": "superseded", "superseded_by": later}), 0.99, ws) \
        == f"it is superseded by {later}"


def test_unrelated_and_weak_hits_are_skipped_with_reasons_on_screen_in_events_and_the_report(agent, settings, tmp_path):
    project = corsgate(tmp_path)
    text = (project / SETTINGS).read_text()
    # The symptom this session searches with (memory is empty: nothing to replay yet).
    query = start_session(agent, {**workspace_task(project, TEST_COMMAND, settings, "symptom-only"),
                                  "approve_edits": False})["memory"]["query"]
    # Another project's fix of the same symptoms, on files this workspace does not have: a strong match.
    other = store(agent, symptom=query, path="app/x.py", project="shop", session="shop-1",
                  diff=_diff("def f():\n    return 1\n", "def f():\n    return 2\n", "app/x.py"))
    # This project's file, but a fix for something else: a weak match (delivered only with min score -1).
    weak = store(agent, symptom="UnicodeDecodeError latin-1 header row in the ledger import",
                 diff=_diff(text, text.replace(BROKEN, FIXED), SETTINGS), path=SETTINGS, project="corsgate",
                 session="weak-1")
    env = cli_env(ASTRA_MIN_SCORE="-1", COLUMNS="80",
                  **({"ASTRA_DATABASE_URL": settings.database_url} if settings.database_url else {}))
    before = (project / SETTINGS).read_bytes()
    result = run_cli("run", "--workspace", str(project), "--test-command", TEST_COMMAND, "--thread-id", "skips",
                     env=env)
    assert result.returncode == 2, result.stderr  # needs_model: nothing was replayed
    run_dir = settings.run_dir("skips")
    summary = json.loads((run_dir / "report.json").read_text())
    assert summary["status"] == "needs_model" and summary["replay_tried"] == [] and summary["model_requests"] == 0
    assert (project / SETTINGS).read_bytes() == before
    hits = {h["memory_id"]: h["score"] for h in summary["memory_hits"]}
    assert hits[other.memory_id] >= REPLAY_MIN_SCORE > hits[weak.memory_id]  # the skips are for the right reason
    skipped = {s["memory_id"]: s["result"] for s in summary["replay_skipped"]}
    assert skipped[other.memory_id] == "its file app/x.py is not in this workspace"
    assert skipped[weak.memory_id].startswith("match 0.") and "is below 0.5" in skipped[weak.memory_id]
    screen = " ".join(result.stderr.split())  # the replay line, whole (80 columns may wrap it)
    assert f"skipped {other.memory_id}: its file app/x.py is not in this workspace" in screen
    assert f"skipped {weak.memory_id}: {skipped[weak.memory_id]}" in screen
    assert "does not exist" not in screen  # nothing was tried on files that are not here
    assert f"skipped {other.memory_id}: its file app/x.py is not in this workspace" in summary["reason"]
    events = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
    assert {(e["memory_id"], e["reason"]) for e in events if e.get("event") == "replay_skipped"} == set(skipped.items())

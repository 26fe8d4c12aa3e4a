"""`astra-memory learn` on a real history (issue 35, items 1 and 4): inflection's own git history,
vendored as a bundle (tests/data/inflection/, MIT, its LICENSE kept), cloned into a temporary folder;
nothing is fetched. Each candidate commit is confirmed by running the library's own 400-odd tests at
its parent with the commit's test files, then with its source change too, in fresh copies under the
confirming run's private root.

- Over ``e5fd209..e32443b``: the two real fixes ("passerby" -> "passersby", titleize of non-ASCII
  words) are confirmed and stored with their commit, author date and repository, the source diff as
  git wrote it byte for byte, the failing output as symptom; the three other commits are named with
  why they are not candidates. Learned again, nothing new is stored.
- The titleize bug brought back (the fix's parent with the fix's tests) is fixed by a session's
  replay with 0 model requests.
- A real non-fix ("Fix flake8 errors") is said: its tests already pass at its parent.
- A learn SIGKILLed right after storing its first fix (ASTRA_CRASH_AT, as tests/test_crash_matrix.py)
  and resumed learns nothing twice and goes on to the next commit.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

import pytest

from astra_memory.learn.confirm_commit import RunOptions, judge_commit
from astra_memory.learn.history import walk
from astra_memory.learn.options import Filters
from astra_memory.learn.session import new_job, open_learner, start_learn, summary
from astra_memory.session.run import open_agent, start_session, workspace_task
from astra_memory.workspace.identity import project_identity
from tests.conftest import cli_env, run_cli
from tests.helpers import PROJECT_PYTEST, git, make_venv

pytestmark = pytest.mark.slow

HISTORY = Path(__file__).parent / "data" / "inflection"
PASSERBY, TITLEIZE = "1969b3a06a9ff06d023863e388cf8af01978d297", "e32443bb7dc1ba91a15336b5baab908d25f4b93a"
TEST_COMMAND = PROJECT_PYTEST


def checkout(tmp_path: Path, head: str) -> Path:
    """A user's clone of inflection's history, at ``head``."""
    where = tmp_path / "inflection"
    git(tmp_path, "clone", "-q", str(HISTORY / "inflection.bundle"), str(where))
    git(where, "checkout", "-q", "-B", "main", head)
    return where


def full(where: Path, short: str) -> str:
    return git(where, "rev-parse", short).strip()


def test_the_vendored_history_keeps_its_licence():
    licence = (HISTORY / "LICENSE").read_text()
    assert "Permission is hereby granted, free of charge" in licence and "Janne Vanhala" in licence


def test_learn_confirms_real_fixes_with_their_provenance_and_replays_one_for_the_bug_come_back(
        settings, agent, tmp_path):
    project = checkout(tmp_path, "e32443b")
    assert [full(project, c) for c in ("1969b3a", "e32443b")] == [PASSERBY, TITLEIZE]
    with open_learner(settings) as learner:
        job = new_job(project, settings=settings, test_command=TEST_COMMAND, python=sys.executable,
                      since="e5fd209")
        final = start_learn(learner, job)
    data = summary(final)
    assert data["status"] == "done"
    assert [(r["sha"], r["verdict"]) for r in data["results"]] == [(PASSERBY, "confirmed"), (TITLEIZE, "confirmed")]
    assert {s["sha"][:7]: s["reason"] for s in data["skipped"]} == {
        "1d6c78f": "it changes no test file",
        "88a0a5f": "its message does not look like a fix (--message)",
        "2d2d379": "its message does not look like a fix (--message)"}

    identity = project_identity(project, settings.home).project_id
    records = {r.learned_from.commit: r for r in agent.memory.iter_records()}
    assert sorted(records) == sorted([PASSERBY, TITLEIZE])
    titleize = records[TITLEIZE]
    origin = titleize.learned_from
    assert origin.parent == full(project, "e32443b^") and origin.repository == identity == titleize.project_id
    assert origin.author_date == datetime.fromisoformat(git(project, "log", "-1", "--format=%aI", TITLEIZE).strip())
    assert origin.tests and all(t.startswith("test_inflection.py::test_titleize[") for t in origin.tests)
    # the source diff only (the test file left out), exactly as git writes it
    assert titleize.diff == git(project, "diff", "--no-color", "--no-renames", f"{TITLEIZE}^", TITLEIZE, "--",
                                "inflection.py")
    assert "test_inflection.py" not in titleize.diff and titleize.file_paths == ["inflection.py"]
    assert titleize.fix_description.startswith("Fix titleize() capitalizing only words starting A-Z")
    assert titleize.diagnosis.cause.startswith("Fix titleize()")
    assert "failing tests: titleize [" in titleize.symptom and "Ana Índia" in titleize.symptom  # the real output
    assert titleize.outcome.startswith(f"{len(origin.tests)} of {len(origin.tests)} failing tests now pass")
    assert [c.project_id for c in titleize.confirmations] == [identity] and titleize.confirmed_here

    # learned twice: nothing new is stored, no test runs again
    with open_learner(settings) as learner:
        again = start_learn(learner, new_job(project, settings=settings, test_command=TEST_COMMAND,
                                             python=sys.executable, since="e5fd209"))
    assert [r["verdict"] for r in again["results"]] == ["learned", "learned"]
    assert {r.memory_id: r for r in agent.memory.iter_records()} == {r.memory_id: r for r in records.values()}

    # item 4: the titleize bug brought back (its parent's source, its tests): replayed, no model
    git(project, "checkout", "-q", f"{TITLEIZE}^")
    git(project, "checkout", "-q", TITLEIZE, "--", "test_inflection.py")
    task = {**workspace_task(project, TEST_COMMAND, settings, "titleize-again", python=sys.executable),
            "approve_edits": False}
    session = start_session(agent, task)
    assert session["status"] == "fixed", session["reason"]
    assert session["replay"]["replayed"] == titleize.memory_id
    assert session["budget"].get("model_requests", 0) == 0
    assert git(project, "diff", TITLEIZE, "--", "inflection.py") == ""  # the fix, byte for byte


def test_a_commit_whose_tests_already_pass_at_its_parent_is_not_a_fix(settings, tmp_path):
    project = checkout(tmp_path, "b1d3e63")  # "Fix flake8 errors": a fix of style, its tests pass before it
    with open_learner(settings) as learner:
        final = start_learn(learner, new_job(project, settings=settings, test_command=TEST_COMMAND,
                                             python=sys.executable, max_commits=1, filters=Filters()))
    [row] = final["results"]
    assert (row["sha"][:7], row["verdict"], row["reason"]) == ("b1d3e63", "not_a_fix",
                                                              "its tests already pass at its parent")


def test_a_learn_killed_after_a_store_resumes_from_the_next_commit_and_learns_nothing_twice(settings, tmp_path):
    project = checkout(tmp_path, "e32443b")
    thread = "learn-killed"
    args = ("learn", "--workspace", str(project), "--since", "2d2d379", "--python", sys.executable,
            "--test-command", TEST_COMMAND, "--thread-id", thread, "--json")
    killed = run_cli(*args, env=cli_env(ASTRA_CRASH_AT="learn:stored"))
    assert killed.returncode == -9, killed.stderr  # SIGKILL, right after the first fix was stored
    with open_learner(settings) as learner:
        state = learner.graph.get_state(learner.config(thread)).values
        assert state["results"] == [] and state["position"] == 0  # its checkpoint is from before that commit

    resumed = run_cli("resume", thread, env=cli_env())
    assert resumed.returncode == 0, resumed.stderr
    lines = resumed.stderr.splitlines()
    table = [line for line in lines if line[:1] in "┏┃┡│└"]
    assert len(table) >= 6 and all(len(line) <= 80 for line in table)  # the end table fits 80 columns
    assert "…" not in resumed.stderr  # whole: nothing cut
    assert any(line.startswith("│ 1969b3a0 │ confirmed") for line in lines), resumed.stderr

    again = run_cli("learn", "--resume", thread, "--json", env=cli_env())
    data = json.loads(again.stdout)
    assert [(r["sha"], r["verdict"]) for r in data["results"]] == [(PASSERBY, "confirmed"), (TITLEIZE, "confirmed")]
    assert data["results"][0]["reason"] == "stored by this learn before it was stopped"  # not run again
    with open_agent(settings) as opened:
        records = list(opened.memory.iter_records())
    assert sorted(r.learned_from.commit for r in records) == sorted([PASSERBY, TITLEIZE])
    assert [[(c.thread_id, c.session_id) for c in r.confirmations] for r in sorted(
        records, key=lambda r: r.learned_from.author_date)] == [[(thread, f"learn-{sha}")] for sha in (PASSERBY, TITLEIZE)]


def test_learn_help_shows_its_filters_and_defaults_whole_at_80_columns():
    shown = run_cli("learn", "--help", env=cli_env(COLUMNS="80", TERM="dumb"))
    assert shown.returncode == 0, shown.stderr
    text = " ".join(shown.stdout.replace("│", " ").split())  # the panels' borders left out
    for option in ("--since", "--max-commits", "--test-command", "--python", "--timeout", "--json", "--resume",
                   "--message", "--source", "--exclude", "--max-lines", "--max-files"):
        assert option in text
    assert r"\b(fix|fixe[sd]|fixing|bug|regression|broken|incorrect|wrong|crash|error)" in text
    assert "[default: 200]" in text and "docs/*, doc/*, examples/*" in text
    assert "…" not in shown.stdout and max(map(len, shown.stdout.splitlines())) <= 80


def test_a_commit_that_cannot_run_in_the_given_environment_or_runs_too_long_is_said_not_counted(
        settings, tmp_path):
    project = checkout(tmp_path, "1969b3a")
    [commit] = [c for c in walk(project, since="2d2d379") if not c.skipped]
    bare = make_venv(tmp_path / "bare", tool_packages=False)  # the project's Python without pytest
    options = RunOptions(test_command=TEST_COMMAND, test_env={"PATH": f"{bare}/bin:/usr/bin:/bin"})
    verdict = judge_commit(project, commit, options, tmp_path / "scratch")
    assert verdict.verdict == "cannot_run" and verdict.reason.startswith("no per-test results at its parent")
    slow = RunOptions(test_command=TEST_COMMAND, test_env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"},
                      timeout_s=0.1)  # under pytest's own start-up (about 0.2 s with no plugin autoloaded)
    verdict = judge_commit(project, commit, slow, tmp_path / "scratch")
    assert (verdict.verdict, verdict.reason) == ("timeout", "the tests ran past the 0.1s timeout at its parent")
    assert not (tmp_path / "scratch").exists()  # the fresh copies are gone


def test_learn_without_a_history_or_without_git_exits_2_saying_why(tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    refused = run_cli("learn", "--workspace", str(plain), env=cli_env())
    assert refused.returncode == 2 and "is not a git repository" in refused.stderr, refused.stderr
    project = checkout(tmp_path, "e32443b")
    no_git = run_cli("learn", "--workspace", str(project), env=cli_env(GIT_PYTHON_GIT_EXECUTABLE="/nonexistent/git"))
    assert no_git.returncode == 2 and "with git, which cannot be run here" in no_git.stderr, no_git.stderr
    # a session may not take a learn's kind of thread id: `resume` would give it to learn
    session = run_cli("run", "alpha", "--thread-id", "learn-alpha", env=cli_env())
    assert session.returncode == 2 and "may not start with 'learn-'" in session.stderr, session.stderr

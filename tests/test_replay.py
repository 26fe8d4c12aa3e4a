"""Zero-model replay of a recurring bug (issue 12, part 2): real sessions through the compiled graph,
real test subprocesses, on a real SQLite memory and a real PostgreSQL one."""

from __future__ import annotations

import difflib
import hashlib
import json
import shutil
from pathlib import Path

import pytest

from astra_memory.context import Context
from astra_memory.rules.routing import route_after_replay
from astra_memory.scenarios import load_scenario
from astra_memory.session.run import start_session, workspace_task
from astra_memory.workspace.files import Workspace
from astra_memory.workspace.identity import project_identity
from astra_memory.workspace.patch import ReplayRefused, plan_patch
from tests.conftest import BACKENDS, cli_env, run_cli
from tests.helpers import PROJECT_TESTS, task_with_script

TEST_COMMAND = PROJECT_TESTS
SETTINGS = "app/settings.py"
BROKEN = '    return [origin for origin in raw.split(",") if origin]\n'
FIXED = '    return [origin.strip() for origin in raw.split(",") if origin.strip()]\n'


def tree(root: Path) -> dict[str, tuple[str, int]]:
    """Every file's bytes (hashed) and mode: what 'restored exactly' compares."""
    return {p.relative_to(root).as_posix(): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mode)
            for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


def alpha_copy(tmp_path: Path, name: str = "corsgate") -> Path:
    """Alpha's project as a user's own checkout (the changed copies are made from it)."""
    target = tmp_path / "copies" / name
    shutil.copytree(load_scenario("alpha").template, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def settings_file(project: Path) -> Path:
    return project / SETTINGS


def symptom_of(agent, settings, project: Path) -> str:
    """The symptom query a session on ``project`` searches memory with (a session with replay off)."""
    final = start_session(agent, {**workspace_task(project, TEST_COMMAND, settings, f"symptom-{project.name}"),
                                  "approve_edits": False}, context=Context(replay=False))
    return final["memory"]["query"]


def fix_alpha_once(agent, settings) -> str:
    final = start_session(agent, task_with_script(settings, "first-alpha"))
    assert final["status"] == "fixed" and final["budget"]["model_requests"] > 0
    return final["stored_memory_id"]


# -- the patch plan, on a plain workspace ---------------------------------------------------------

def _diff(before: str, after: str, path: str = SETTINGS) -> str:
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), f"a/{path}", f"b/{path}"))


def test_plan_finds_hunks_at_other_offsets_and_refuses_what_differs(tmp_path):
    body = "def f(raw):\n    x = 1\n" + BROKEN + "    return None\n"
    diff = _diff(body, body.replace(BROKEN, FIXED))
    (tmp_path / "app").mkdir()
    (tmp_path / "tests").mkdir()
    ws = Workspace(tmp_path)
    settings_file(tmp_path).write_text("# new\n# lines\n# above\n" + body + "\n\ndef g():\n    pass\n")
    (patch,) = plan_patch(ws, diff)
    assert patch.after == patch.before.replace(BROKEN, FIXED)
    settings_file(tmp_path).write_text(body.replace("x = 1", "x = 2"))  # a context line differs
    with pytest.raises(ReplayRefused, match="does not apply"):
        plan_patch(ws, diff)
    settings_file(tmp_path).write_text(body + body)  # the block twice: which one is meant is a guess
    with pytest.raises(ReplayRefused, match="2 times"):
        plan_patch(ws, diff)
    (tmp_path / "tests" / "test_x.py").write_text(body)
    with pytest.raises(ReplayRefused, match="protected"):
        plan_patch(ws, _diff(body, body.replace(BROKEN, FIXED), "tests/test_x.py"))


def test_route_after_replay_is_the_confirmed_fix_gate():
    run = {"passed": True, "outcome": "ok", "edits_seen": 1}
    assert route_after_replay({"test_runs": [run], "passed_outcome": "ok", "edits": [{}]}) == "confirm"
    assert route_after_replay({"test_runs": [run], "passed_outcome": "ok", "edits": [{}, {}]}) == "investigate"
    assert route_after_replay({"status": "failed"}) == "report"
    assert route_after_replay({}) == "investigate"


# -- whole sessions, both backends --------------------------------------------------------------

pytestmark_backends = pytest.mark.parametrize("backend", BACKENDS, indirect=True)


@pytestmark_backends
def test_a_known_bug_in_a_changed_copy_is_fixed_by_replay_with_no_model(agent, settings, tmp_path):
    memory_id = fix_alpha_once(agent, settings)
    project = alpha_copy(tmp_path)
    text = settings_file(project).read_text()
    settings_file(project).write_text('"""A changed copy."""\nTIMEOUT = 5\n\n\n' + text)  # other line offsets
    (project / "tests" / "test_more.py").write_text("def test_one_more():\n    assert True\n")  # another outcome
    task = workspace_task(project, TEST_COMMAND, settings, "replay-thread")  # no script: no model configured
    asked = []  # your own project: the replay waits for a human's yes, like any edit (approve_edits)
    final = start_session(agent, task, on_approval=lambda request: asked.append(request) or "approve")
    assert [(r["kind"], r["memory_id"]) for r in asked] == [("approve_replay", memory_id)]
    assert "+" in asked[0]["diff"] and asked[0]["path"] == "app/settings.py"
    assert final["status"] == "fixed", final["reason"]
    assert final["budget"].get("model_requests", 0) == 0
    assert final["replay"]["replayed"] == memory_id and f"replayed memory {memory_id}" in final["reason"]
    # The reason quotes this session's own fresh-copy run, not the stored fix's earlier one (issue 36 item 7).
    assert f"by {final['confirm']['outcome']};" in final["reason"] and "5 passed" in final["confirm"]["outcome"]
    assert FIXED in settings_file(project).read_text() and BROKEN not in settings_file(project).read_text()
    # The user's folder is another project than the bundled scenario (workspace/identity.py): the
    # replayed record gets this session's confirmation, and the folder's project its own record.
    record = agent.memory.get(memory_id)
    assert [(c.thread_id, c.kind) for c in record.confirmations] == [("first-alpha", "fix"), ("replay-thread", "replay")]
    own = agent.memory.get(final["stored_memory_id"])
    assert agent.memory.count() == 2 and own.memory_id != memory_id
    assert own.project_id == project_identity(project, settings.home).project_id != record.project_id
    assert "+" + FIXED in own.diff and own.diff != record.diff  # the change as made here, at this copy's lines
    assert [(c.thread_id, c.kind) for c in own.confirmations] == [("replay-thread", "replay")]


@pytestmark_backends
def test_a_diff_whose_context_differs_is_refused_and_nothing_is_written(agent, settings, tmp_path):
    memory_id = fix_alpha_once(agent, settings)
    project = alpha_copy(tmp_path)
    text = settings_file(project).read_text()
    settings_file(project).write_text(text.replace("    if not raw:\n", "    if not raw:  # empty setting\n"))
    before = tree(project)
    final = start_session(agent, {**workspace_task(project, TEST_COMMAND, settings, "refused-thread"),
                                  "approve_edits": False})
    assert final["status"] == "needs_model" and final["budget"].get("model_requests", 0) == 0
    (attempt,) = final["replay"]["tried"]
    assert attempt["memory_id"] == memory_id and attempt["result"].startswith("does not apply")
    assert "does not apply" in final["reason"] and "--model openai:" in final["reason"]  # how to choose a model
    assert tree(project) == before
    assert len(agent.memory.get(memory_id).confirmations) == 1


WRONG_FIX = '    return [origin for origin in raw.split(",") if origin.strip()]\n'  # drops blanks, keeps spaces


@pytestmark_backends
def test_a_replay_whose_tests_still_fail_is_undone_byte_for_byte(agent, settings, tmp_path):
    project = alpha_copy(tmp_path)
    text = settings_file(project).read_text()
    wrong = agent.memory.store_fix_memory(
        "Drop blank origins.", "AssertionError", [SETTINGS], "pytest passed with exit code 0 (4 passed)",
        confirmed_outcome="pytest passed with exit code 0 (4 passed)",
        symptom=symptom_of(agent, settings, project), diff=_diff(text, text.replace(BROKEN, WRONG_FIX)),
        session_id="wrong-session", project="corsgate",  # the same symptoms: a strong match, tried
        project_id=project_identity(project, settings.home).project_id)  # this project's own fix
    # CRLF line ends and an executable bit: a text-mode rewrite would change both; the restore must not.
    settings_file(project).write_bytes(text.replace("\n", "\r\n").encode())
    settings_file(project).chmod(0o755)
    before = tree(project)
    final = start_session(agent, {**workspace_task(project, TEST_COMMAND, settings, "undo-thread"),
                                  "approve_edits": False})
    (attempt,) = final["replay"]["tried"]
    assert attempt["memory_id"] == wrong.memory_id and attempt["result"].startswith("tests still fail")
    assert final["status"] == "needs_model" and tree(project) == before
    assert [r["phase"] for r in final["test_runs"]] == ["observe", "replay"]
    assert final.get("stored_memory_id") is None and len(agent.memory.get(wrong.memory_id).confirmations) == 1


@pytestmark_backends
def test_no_replay_asks_the_model_and_is_kept_across_resume(agent, settings):
    fix_alpha_once(agent, settings)
    task = task_with_script(settings, "no-replay-thread")
    final = start_session(agent, task, context=Context(replay=False))
    assert final["status"] == "fixed" and final["budget"]["model_requests"] > 0
    assert final["replay"]["skipped"].startswith("switched off") and final["task"]["knobs"]["replay"] is False
    # said once, with how it is set (the new-user run read "switched off (replay (--no-replay, ASTRA_REPLAY))")
    assert final["replay"]["skipped"] == "switched off: replay (--no-replay, ASTRA_REPLAY)"


# -- a crash during replay ----------------------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_a_crash_during_replay_resumes_without_applying_twice(settings, backend, tmp_path):
    env = cli_env(**({"ASTRA_DATABASE_URL": settings.database_url} if settings.database_url else {}))
    assert run_cli("run", "alpha", "--thread-id", "crash-first", env=env).returncode == 0
    # The same project again (alpha's: a project is who it is, never a folder's name), unattended.
    crashed = run_cli("run", "alpha", "--thread-id", "crash-replay", env={**env, "ASTRA_CRASH_AT": "replay:applied"})
    project = settings.run_dir("crash-replay") / "workspace"
    assert crashed.returncode == -9, crashed.stderr  # SIGKILL with the diff written, tests not yet run
    assert FIXED in settings_file(project).read_text()
    journal = settings.run_dir("crash-replay") / "replay"
    assert [json.loads(p.read_text())["state"] for p in journal.glob("*.json")] == ["applying"]
    resumed = run_cli("resume", "crash-replay", "--json", env=env)
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["status"] == "fixed" and summary["model_requests"] == 0 and summary["replayed_memory_id"]
    # Applied exactly once: the file is the fixed template, not a patch on top of a patch.
    assert settings_file(project).read_text() == (load_scenario("alpha").template / SETTINGS).read_text().replace(BROKEN, FIXED)
    shown = json.loads(run_cli("memory", "show", summary["replayed_memory_id"], "--json", env=env).stdout)
    assert [(c["thread_id"], c["kind"]) for c in shown["confirmations"]] == [("crash-first", "fix"),
                                                                             ("crash-replay", "replay")]


@pytestmark_backends
def test_a_rejected_replay_writes_nothing_and_names_the_reason(agent, settings, tmp_path):
    memory_id = fix_alpha_once(agent, settings)
    project = alpha_copy(tmp_path)
    before = tree(project)
    final = start_session(agent, workspace_task(project, TEST_COMMAND, settings, "rejected-thread"),
                          on_approval=lambda request: {"action": "reject", "reason": "not this one"})
    (attempt,) = final["replay"]["tried"]
    assert attempt == {"memory_id": memory_id, "result": "rejected by the human reviewer: not this one"}
    assert final["status"] == "needs_model" and tree(project) == before
    assert len(agent.memory.get(memory_id).confirmations) == 1


# -- issue 32 class 7: replay applies the diff that was confirmed, never one scrubbed of a secret ----

DB_SOURCE = ('def service():\n    """The CI database service."""\n    return {\n        "host": "localhost",\n'
             '        "user": "postgres",\n    }\n')
DB_TESTS = ("from app.db import service\n\n\ndef test_the_ci_password_is_set():\n"
            '    assert service()["password"] == "postgres"\n')
PASSWORD_SCRIPT = [
    {"tool": "state_diagnosis", "args": {"error_type": "KeyError", "cause": "The CI service has no password entry.",
                                         "files": ["app/db.py"]}},
    {"tool": "apply_edit", "args": {"path": "app/db.py", "old_text": '        "user": "postgres",\n',
                                    "new_text": '        "user": "postgres",\n        "password": "postgres",\n'}},
    {"tool": "finish", "args": {"fix_description": "Give the CI service its well-known password.",
                                "error_type": "KeyError"}},
]


def db_project(root: Path) -> Path:
    (root / "app").mkdir(parents=True)
    (root / "app" / "__init__.py").write_text("")
    (root / "app" / "db.py").write_text(DB_SOURCE)
    (root / "tests").mkdir()
    (root / "tests" / "test_db.py").write_text(DB_TESTS)
    return root


@pytestmark_backends
def test_a_fix_whose_diff_was_scrubbed_is_stored_not_replayable_and_never_applied(agent, settings, tmp_path):
    task = workspace_task(db_project(tmp_path / "first" / "ciservice"), TEST_COMMAND, settings, "secret-first")
    final = start_session(agent, {**task, "script": PASSWORD_SCRIPT, "approve_edits": False})
    assert final["status"] == "fixed", final.get("reason")
    record = agent.memory.get(final["stored_memory_id"])
    assert '+        "password": "[REDACTED]",\n' in record.diff  # scrubbed as stored
    assert record.not_replayable and record.replay_refusal.startswith("not replayable: the confirmed diff")
    project = db_project(tmp_path / "second" / "ciservice")
    asked = []  # a human is there, and would say yes: a scrubbed diff is not even put to them
    task = workspace_task(project, TEST_COMMAND, settings, "secret-second")
    final = start_session(agent, task, on_approval=lambda request: asked.append(request) or "approve")
    assert asked == [] and not final.get("edits") and final["status"] == "needs_model"
    assert (project / "app" / "db.py").read_text() == DB_SOURCE  # no "[REDACTED]" written into the code
    (passed,) = [p for p in final["replay"]["passed_over"] if p["memory_id"] == record.memory_id]
    assert passed["result"].startswith("it is not replayable: the confirmed diff held text that looks like a secret")
    env = cli_env(**({"ASTRA_DATABASE_URL": settings.database_url} if settings.database_url else {}))
    shown = run_cli("memory", "show", record.memory_id, env=env)
    assert shown.returncode == 0 and "replayable: no, not replayable: the confirmed diff" in shown.stdout
    found = run_cli("memory", "search", "KeyError password test_the_ci_password_is_set", env=env)
    assert "replayable: no, not replayable: the confirmed diff" in found.stdout, found.stdout


def test_a_record_stored_before_the_flag_with_redacted_in_its_diff_is_not_replayed(agent, settings, tmp_path):
    memory_id = fix_alpha_once(agent, settings)
    record = agent.memory.get(memory_id)
    assert record.replay_refusal == ""  # a clean diff is replayable
    old = record.model_copy(update={"diff": record.diff.replace("origin.strip()", '"[REDACTED]"')})
    assert old.not_replayable is None and old.replay_refusal.startswith("not replayable: the stored diff holds")

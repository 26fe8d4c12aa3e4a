"""A memory file edited by hand (a row whose value is not a valid record) is read around, not
failed on: sessions, `memory search`, `memory list`, `memory export` skip the damaged row and say
so; `memory show ID` says what is wrong with it; `memory delete ID` removes it (attack case B16).
Real graph, real SQLite file, the rows edited with SQL as a person with the file would."""

from __future__ import annotations

import json

from astra_memory.backends.sqlite.store import connect
from astra_memory.events import read_events
from astra_memory.session.run import start_session
from tests.conftest import cli_env, run_cli
from tests.helpers import ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH, call, task_with_script

WRONG = call("apply_edit", path="app/settings.py", old_text="if origin]", new_text="if origin and origin]")


def _edit_by_hand(settings, key: str, value: str) -> None:
    conn = connect(settings.memory_path)
    try:
        assert conn.execute("UPDATE store SET value = ? WHERE key = ?", (value, key)).rowcount == 1
    finally:
        conn.close()


def _rows(settings, table: str, key: str) -> int:
    conn = connect(settings.memory_path)
    try:
        return conn.execute(f"SELECT count(*) FROM {table} WHERE key = ?", (key,)).fetchone()[0]
    finally:
        conn.close()


def _fixed(agent, settings, thread: str) -> dict:
    final = start_session(agent, task_with_script(settings, thread, [ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH]))
    assert final["status"] == "fixed", final.get("reason")
    return final


def test_a_damaged_fix_is_skipped_by_the_next_session_and_said(agent, settings):
    fix_id = _fixed(agent, settings, "t-fix")["stored_memory_id"]
    _edit_by_hand(settings, fix_id, '{"memory_id": 1}')

    final = _fixed(agent, settings, "t-after")  # was: status error in memory_search
    assert final["memory"]["hits"] == [] and final["memory"]["damaged_skipped"] == 1
    (event,) = [e for e in read_events(final["task"]["run_dir"]) if e["event"] == "memory_damaged_skipped"]
    assert event["count"] == 1 and "memory_id" in event["records"][fix_id]
    # The same fix confirmed again is written over the damaged row: memory is whole again.
    assert agent.memory.get(fix_id) is not None and agent.memory.get(fix_id).memory_id == fix_id


def test_memory_commands_skip_a_damaged_fix_say_so_and_delete_it(agent, settings):
    fix_id = _fixed(agent, settings, "t-fix")["stored_memory_id"]
    symptom = agent.memory.get(fix_id).symptom
    _edit_by_hand(settings, fix_id, json.dumps({"memory_id": 1, "evil\x1b[31m": "x"}))
    env = cli_env()

    for args in (["search", symptom], ["list"]):
        done = run_cli("memory", *args, env=env)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert "1 damaged record(s) skipped" in done.stderr and fix_id in done.stderr
        assert "\x1b" not in done.stderr and "\\x1b" in done.stderr  # a key of the value: never a raw ESC
    filtered = run_cli("memory", "search", symptom, "--error-type", "AssertionError", env=env)
    assert filtered.returncode == 0 and "Traceback" not in filtered.stderr  # (the filter never meets the row)
    as_json = run_cli("memory", "search", symptom, "--json", env=env)
    assert json.loads(as_json.stdout) == []  # stdout stays the result; the note is on stderr

    exported = run_cli("memory", "export", str(settings.home / "out.jsonl"), env=env)
    assert exported.returncode == 0 and "exported 0 record(s)" in exported.stdout
    assert "1 damaged record(s) skipped" in exported.stderr

    shown = run_cli("memory", "show", fix_id, env=env)
    assert shown.returncode == 1 and "Traceback" not in shown.stderr
    assert f"record {fix_id} is damaged" in shown.stderr and "invalid fix record: memory_id" in shown.stderr

    deleted = run_cli("memory", "delete", fix_id, env=env)
    assert deleted.returncode == 0 and f"deleted {fix_id}" in deleted.stdout
    assert _rows(settings, "store", fix_id) == 0 and _rows(settings, "store_vectors", fix_id) == 0
    listed = run_cli("memory", "list", env=env)
    assert listed.returncode == 0 and "damaged" not in listed.stderr and "memory is empty" in listed.stdout


def test_a_value_that_is_not_an_object_is_skipped_too(agent, settings):
    fix_id = _fixed(agent, settings, "t-fix")["stored_memory_id"]
    _edit_by_hand(settings, fix_id, "[1, 2]")
    final = _fixed(agent, settings, "t-after")
    assert final["memory"]["damaged_skipped"] == 1
    listed = run_cli("memory", "list", "--json", env=cli_env())
    assert listed.returncode == 0 and json.loads(listed.stdout)[0]["memory_id"] == fix_id  # stored over


def test_a_damaged_attempt_is_shown_as_damaged_and_deleted(agent, settings):
    final = start_session(agent, task_with_script(settings, "t-wrong", [ALPHA_DIAGNOSIS, WRONG, FINISH]))
    (attempt_id,) = final["attempt_records"]
    _edit_by_hand(settings, attempt_id, '{"attempt_id": 1, "kind": "attempt"}')
    env = cli_env()

    listed = run_cli("memory", "list", "--attempts", env=env)
    assert listed.returncode == 0 and "1 damaged record(s) skipped" in listed.stderr and attempt_id in listed.stderr
    shown = run_cli("memory", "show", attempt_id, env=env)
    assert shown.returncode == 1 and "invalid attempt record" in shown.stderr and "Traceback" not in shown.stderr
    deleted = run_cli("memory", "delete", attempt_id, env=env)  # was: "no record" (a validated get)
    assert deleted.returncode == 0 and f"deleted {attempt_id}" in deleted.stdout
    assert _rows(settings, "store", attempt_id) == 0 and _rows(settings, "store_vectors", attempt_id) == 0
    again = run_cli("memory", "delete", attempt_id, env=env)
    assert again.returncode == 2 and "no record" in again.stderr


def test_a_value_cut_off_mid_json_is_skipped_said_and_deleted(agent, settings):
    """Issue 32 class 12: a row whose value is cut off (SQLite's structure intact, `quick_check` ok).
    SqliteStore decodes a search's rows all at once, so this one row used to stop `memory list`,
    `memory search`, `memory delete` with a JSONDecodeError traceback and every session at memory_search."""
    fix_id = _fixed(agent, settings, "t-fix")["stored_memory_id"]
    whole = json.dumps(agent.memory.get(fix_id).model_dump(mode="json"))
    _edit_by_hand(settings, fix_id, whole[: len(whole) // 2])
    env = cli_env()
    for args in (["list"], ["search", "allowed origins whitespace"], ["show", fix_id]):
        done = run_cli("memory", *args, env=env)
        assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
        assert "not valid JSON" in done.stderr and fix_id in done.stderr

    # A filter reads the value's fields in SQL (json_extract): the cut-off row matches none, never stops the
    # search ("malformed JSON"): the error type a person gives, and a session's search for its project's fixes.
    filtered = run_cli("memory", "search", "allowed origins whitespace", "--error-type", "AssertionError", env=env)
    assert filtered.returncode == 0 and "Traceback" not in filtered.stderr, filtered.stderr
    assert "not valid JSON" in filtered.stderr and fix_id in filtered.stderr  # passed over, and said (round 8, 07)
    final = _fixed(agent, settings, "t-after")  # was: status error in memory_search
    assert final["memory"]["damaged_skipped"] == 1
    assert agent.memory.get(fix_id) is not None  # the same fix confirmed again is written over it

    _edit_by_hand(settings, fix_id, whole[:40])
    deleted = run_cli("memory", "delete", fix_id, env=env)
    assert deleted.returncode == 0 and f"deleted {fix_id}" in deleted.stdout, deleted.stderr
    assert _rows(settings, "store", fix_id) == 0 and _rows(settings, "store_vectors", fix_id) == 0

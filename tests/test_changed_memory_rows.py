"""A fix record changed in the database itself (its stored diff given a backdoor line, its id kept:
attack case 22) is never replayed and never shown to the model as a fix: every read of a fix checks
that its content still gives its content-derived id and that its diff is byte for byte the one
written (stores/record.py ``content_problem``, through ``FixMemory.record_of``). Such a row is
damaged: skipped, said, listed as such by `memory list`, deletable. Real sessions through the
compiled graph, the row edited with SQL as a person with the database would, on SQLite and on
PostgreSQL."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from astra_memory.backends.sqlite.store import connect
from astra_memory.events import read_events
from astra_memory.session.run import start_session
from tests.conftest import BACKENDS, cli_env, run_cli
from tests.helpers import task_with_script

SETTINGS = "app/settings.py"
FIXED = '+    return [origin.strip() for origin in raw.split(",") if origin.strip()]\n'
BACKDOOR = "BACKDOOR_TAMPERED = 1"
DIFF_HASH_FIELD = "diff_sha256"  # stores/record.py: the stored diff's sha256, beside the record's fields


def with_backdoor(diff: str) -> str:
    """The diff with three more added lines after the fix (its hunk header counted again): it still
    applies and the tests still pass, and its id, over the changed lines, is another one."""
    assert FIXED in diff, diff
    changed = diff.replace(FIXED, FIXED + f"+\n+\n+{BACKDOOR}\n")
    return re.sub(r"^@@ -(\d+),(\d+) \+(\d+),(\d+) @@",
                  lambda m: f"@@ -{m[1]},{m[2]} +{m[3]},{int(m[4]) + 3} @@", changed, count=1, flags=re.M)


def with_trailing_blanks(diff: str) -> str:
    """The fix's line with blanks after it: the same id (whitespace is squashed in it), not the same
    bytes: only the diff's hash tells, which every record is written with."""
    assert FIXED in diff, diff
    return diff.replace(FIXED, FIXED[:-1] + "   \n")


def with_other_context(diff: str) -> str:
    """A context line of the hunk changed: the changed lines, so the id, are the same."""
    lines = diff.splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if line.startswith(" ") and line.strip())
    lines[index] = " " + lines[index][1:].rstrip("\n") + "  # context changed\n"
    return "".join(lines)


# name: the change made to the stored diff with SQL, every other field (its stored diff_sha256 too) kept
CHANGES = {"a backdoor line": with_backdoor, "blanks only": with_trailing_blanks, "a context line": with_other_context}


def digest(diff: str) -> str:
    return hashlib.sha256(diff.encode("utf-8")).hexdigest()


def stored_value(settings, key: str) -> dict:
    if settings.database_url:
        import psycopg

        with psycopg.connect(settings.database_url, autocommit=True) as conn:
            (value,) = conn.execute("SELECT value FROM store WHERE key = %s", (key,)).fetchone()
        return value
    conn = connect(settings.memory_path)
    try:
        (value,) = conn.execute("SELECT value FROM store WHERE key = ?", (key,)).fetchone()
    finally:
        conn.close()
    return json.loads(value)


def edit_in_the_database(settings, key: str, value: dict) -> None:
    """UPDATE the row's value with SQL, nothing else: the id, the vectors and every other row kept."""
    if settings.database_url:
        import psycopg
        from psycopg.types.json import Jsonb

        with psycopg.connect(settings.database_url, autocommit=True) as conn:
            assert conn.execute("UPDATE store SET value = %s WHERE key = %s", (Jsonb(value), key)).rowcount == 1
        return
    conn = connect(settings.memory_path)
    try:
        assert conn.execute("UPDATE store SET value = ? WHERE key = ?", (json.dumps(value), key)).rowcount == 1
    finally:
        conn.close()


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_fix_changed_in_the_database_is_never_replayed_and_is_named_damaged(agent, settings, change):
    first = start_session(agent, task_with_script(settings, "first-alpha"))
    assert first["status"] == "fixed", first.get("reason")
    memory_id = first["stored_memory_id"]
    value = stored_value(settings, memory_id)
    assert value[DIFF_HASH_FIELD] == digest(value["diff"])  # written with the record (stores/record.py)
    changed = CHANGES[change](value["diff"])
    assert changed != value["diff"]
    edit_in_the_database(settings, memory_id, {**value, "diff": changed})

    # A fresh copy of alpha (the same project: replayed unasked), no model, no human to ask.
    task = {**task_with_script(settings, "second-alpha"), "script": None, "approve_edits": False}
    final = start_session(agent, task)
    workspace_text = (settings.run_dir("second-alpha") / "workspace" / SETTINGS).read_text()
    assert BACKDOOR not in workspace_text and "   \n" not in workspace_text and "origin.strip()" not in workspace_text
    assert "context changed" not in workspace_text
    assert final["status"] == "needs_model", final.get("reason")
    assert not final.get("edits") and final["replay"]["replayed"] is None and not final["replay"]["tried"]
    assert final["budget"].get("model_requests", 0) == 0
    assert final["memory"]["hits"] == [] and final["memory"]["damaged_skipped"] == 1
    (event,) = [e for e in read_events(final["task"]["run_dir"]) if e["event"] == "memory_damaged_skipped"]
    assert list(event["records"]) == [memory_id] and "changed fix record" in event["records"][memory_id]
    assert agent.memory.get(memory_id) is None and memory_id in agent.memory.damaged

    env = cli_env(**({"ASTRA_DATABASE_URL": settings.database_url} if settings.database_url else {}))
    listed = run_cli("memory", "list", env=env)
    assert listed.returncode == 0 and "1 damaged record(s) skipped" in listed.stderr, listed.stderr
    assert f"{memory_id}: changed fix record" in listed.stderr
    shown = run_cli("memory", "show", memory_id, env=env)
    assert shown.returncode == 1 and f"record {memory_id} is damaged" in shown.stderr
    deleted = run_cli("memory", "delete", memory_id, env=env)
    assert deleted.returncode == 0 and f"deleted {memory_id}" in deleted.stdout, deleted.stderr
    again = run_cli("memory", "list", env=env)
    assert again.returncode == 0 and "damaged" not in again.stderr and "memory is empty" in again.stdout


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_a_fix_without_its_diff_hash_is_still_read_and_replayed(agent, settings):
    """A record written before ``diff_sha256`` was (by the version that only read it, or earlier) holds
    none: it is checked by its content id alone, and is a fix as any other."""
    first = start_session(agent, task_with_script(settings, "hashed-alpha"))
    memory_id = first["stored_memory_id"]
    value = stored_value(settings, memory_id)
    assert value.pop(DIFF_HASH_FIELD) == digest(value["diff"])
    edit_in_the_database(settings, memory_id, value)
    assert agent.memory.get(memory_id) is not None and not agent.memory.damaged
    task = {**task_with_script(settings, "replay-alpha"), "script": None, "approve_edits": False}
    final = start_session(agent, task)
    assert final["status"] == "fixed" and final["replay"]["replayed"] == memory_id, final.get("reason")
    assert final["budget"].get("model_requests", 0) == 0


def test_a_row_under_another_key_or_of_version_one_is_never_a_fix_to_replay():
    """The check's other two cases, on values alone: a record whose ``memory_id`` is not the key it is
    stored under is changed; a version-1 record (its id was over the session: nothing to recompute) is
    read, listed and migrated, never replayed (``replay_refusal``) until `memory migrate` gives it its id."""
    from astra_memory.stores.record import content_problem, memory_id_for, validate_record

    diff = "--- a/app/x.py\n+++ b/app/x.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n"
    data = {"symptom": "s", "error_type": "AssertionError", "file_paths": ["app/x.py"], "fix_description": "f",
            "diff": diff, "outcome": "o", "timestamp": "2026-01-01T00:00:00+00:00",
            "updated_at": "2026-01-01T00:00:00+00:00", "session_id": "s1", "thread_id": "s1", "project": "p"}
    own = memory_id_for(project="p", error_type="AssertionError", diff=diff)
    value = {**data, "memory_id": own, "schema_version": 2}
    assert content_problem(own, value) is None
    assert "stored under the id" in content_problem("00000000-0000-4000-8000-000000000001", value)
    assert "gives the id" in content_problem(own, {**value, "diff": diff.replace("+a = 2", "+a = 3")})
    assert content_problem(own, {**value, DIFF_HASH_FIELD: digest(diff)}) is None
    assert "not the diff it was stored with" in content_problem(own, {**value, DIFF_HASH_FIELD: digest(diff + " ")})
    old_id = "00000000-0000-4000-8000-000000000002"
    old = {**data, "memory_id": old_id, "schema_version": 1}
    assert content_problem(old_id, old) is None  # read (listed, migrated) as before
    assert validate_record(old).replay_refusal.startswith("not replayable: a version-1 record")
    assert validate_record(value).replay_refusal == ""

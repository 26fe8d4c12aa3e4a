"""Invariant (i), its last clause on both backends: a damaged memory row "can be deleted", whatever
the damage. One real session stores a fix; its row is then damaged with SQL, as a person with the
database would, in each of the ways the readers know (stores/record.py ``read_stored``,
``content_problem``); `memory list` names it damaged, `memory delete ID` removes it and its
vectors, and the memory lists clean after. PostgreSQL's ``jsonb`` cannot hold JSON cut off mid-value,
so there the cut-off text is stored as what it can hold: a JSON string (not an object). Before
stores/record.py ``jsonb_value`` read PostgreSQL's values, such a row (or a list) made `memory list`,
`memory search` and `memory delete` stop with a traceback from LangGraph's JSON reader."""

from __future__ import annotations

import json

import pytest

from astra_memory.backends.sqlite.store import connect
from astra_memory.session.run import start_session
from tests.conftest import BACKENDS, cli_env, run_cli
from tests.helpers import ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH, task_with_script


def _cut_off(value: dict, memory_id: str):
    whole = json.dumps(value)
    return whole[: len(whole) // 2], "raw"  # SQL text: not JSON at all


def _changed_diff(value: dict, memory_id: str):
    changed = value["diff"].replace("origin.strip()", "origin.strip().lower()", 1)
    assert changed != value["diff"]
    return {**value, "diff": changed}, "json"  # its content no longer gives its id


def _another_id(value: dict, memory_id: str):
    return {**value, "memory_id": "00000000-0000-4000-8000-00000000beef"}, "json"  # names another key


def _not_an_object(value: dict, memory_id: str):
    return [value["memory_id"], value["diff"]], "json"


DAMAGE = {"cut off mid-value": _cut_off, "changed content id": _changed_diff, "another id": _another_id,
          "not an object": _not_an_object}


def _sql(settings, query: str, params: tuple):
    if settings.database_url:
        import psycopg

        with psycopg.connect(settings.database_url, autocommit=True) as conn:
            cursor = conn.execute(query.replace("?", "%s"), params)
            return cursor.rowcount, (cursor.fetchone() if cursor.description else None)
    conn = connect(settings.memory_path)
    try:
        cursor = conn.execute(query, params)
        return cursor.rowcount, (cursor.fetchone() if cursor.description else None)
    finally:
        conn.close()


def _damage(settings, key: str, how) -> None:
    value = agent_value(settings, key)
    damaged, kind = how(value, key)
    if settings.database_url:
        from psycopg.types.json import Jsonb

        text = damaged if kind == "raw" else None
        stored = Jsonb(text) if text is not None else Jsonb(damaged)  # jsonb: cut-off text only as a string
        assert _sql(settings, "UPDATE store SET value = ? WHERE key = ?", (stored, key))[0] == 1
        return
    stored = damaged if kind == "raw" else json.dumps(damaged)
    assert _sql(settings, "UPDATE store SET value = ? WHERE key = ?", (stored, key))[0] == 1


def agent_value(settings, key: str) -> dict:
    _, row = _sql(settings, "SELECT value FROM store WHERE key = ?", (key,))
    return row[0] if isinstance(row[0], dict) else json.loads(row[0])


def _rows(settings, table: str, key: str) -> int:
    return _sql(settings, f"SELECT count(*) FROM {table} WHERE key = ?", (key,))[1][0]


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_fix_row_is_named_and_deleted_on_each_backend(agent, settings, damage):
    final = start_session(agent, task_with_script(settings, "d-fix", [ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH]))
    assert final["status"] == "fixed", final.get("reason")
    key = final["stored_memory_id"]
    assert _rows(settings, "store_vectors", key) > 0
    _damage(settings, key, DAMAGE[damage])
    env = cli_env(**({"ASTRA_DATABASE_URL": settings.database_url} if settings.database_url else {}))

    listed = run_cli("memory", "list", env=env)
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stderr
    assert "1 damaged record(s) skipped" in listed.stderr and key in listed.stderr, listed.stderr
    searched = run_cli("memory", "search", "allowed origins whitespace", env=env)
    assert searched.returncode == 0 and "Traceback" not in searched.stderr and key in searched.stderr, searched.stderr
    deleted = run_cli("memory", "delete", key, env=env)
    assert deleted.returncode == 0 and f"deleted {key}" in deleted.stdout, (deleted.stdout, deleted.stderr)
    assert _rows(settings, "store", key) == 0 and _rows(settings, "store_vectors", key) == 0
    again = run_cli("memory", "list", env=env)
    assert again.returncode == 0 and "damaged" not in again.stderr and "memory is empty" in again.stdout

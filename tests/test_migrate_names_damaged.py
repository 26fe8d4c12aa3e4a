"""`memory migrate` in place reads every record, so it meets the damaged rows too: it skips them and
says so, as `search`, `list` and `export` do (outside round 7 case 11: it printed `1 -> 1 record(s)` and
nothing of the two rows a hand edit had damaged). Real session, real SQLite file, the row written with
SQL as a person with the file would."""

from __future__ import annotations

import json

from astra_memory.backends.sqlite.store import connect
from tests.conftest import cli_env, run_cli
from tests.test_damaged_rows import _fixed


def test_migrate_in_place_names_the_damaged_rows_it_skipped(agent, settings):
    fix_id = _fixed(agent, settings, "t-fix")["stored_memory_id"]
    conn = connect(settings.memory_path)
    try:
        prefix, value = conn.execute("SELECT prefix, value FROM store WHERE key = ?", (fix_id,)).fetchone()
        damaged = dict(json.loads(value), memory_id="not-a-uuid")
        conn.execute("INSERT INTO store (prefix, key, value) VALUES (?, ?, ?)", (prefix, "not-a-uuid", json.dumps(damaged)))
        conn.commit()
    finally:
        conn.close()

    for args in (["migrate"], ["migrate", "--json"]):
        done = run_cli("memory", *args, env=cli_env())
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert "1 damaged record(s) skipped" in done.stderr and "not-a-uuid" in done.stderr, done.stderr
    assert agent.memory.get(fix_id) is not None  # the sound record is untouched

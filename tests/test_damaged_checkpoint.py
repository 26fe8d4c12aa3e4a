"""A thread whose checkpoint *value* is damaged in a sound database (the file passes
``PRAGMA quick_check``; only the bytes LangGraph decodes are garbage): `threads` lists every other
thread and names the damaged one once as ``unreadable``, `resume` of it is one line and exit 2, and
the other threads still resume. The checkpoint readers' rule: checkpoints.CheckedReads.

Real sessions on both backends: `run alpha` with the scripted model, one of them killed mid-run
(ASTRA_CRASH_AT) so that it has something left to resume; then the damaged threads' stored bytes
are overwritten by hand, as an outside writer would: on SQLite the latest ``checkpoints.checkpoint``
blob, on PostgreSQL the thread's ``checkpoint_blobs`` (the channel values; the checkpoint row itself
is ``jsonb``, which garbage cannot be).
"""

from __future__ import annotations

import json
import os
import sqlite3

import pytest

from tests.conftest import BACKENDS, cli_env, run_cli

# Two kinds of garbage: one that msgpack still decodes (0x07 is the int 7; the rest is ignored),
# so the damage shows only in what it decodes to, and one it refuses (0xc1 is never used).
GARBAGE = {"bad-int": b"\x07" + b"garbage!" * 40, "bad-bytes": b"\xc1" + b"garbage!" * 40}


def _damage(backend: str, home, thread_id: str, garbage: bytes) -> None:
    if backend == "postgres":
        import psycopg

        with psycopg.connect(os.environ["ASTRA_DATABASE_URL"], autocommit=True) as conn:
            changed = conn.execute("UPDATE checkpoint_blobs SET blob = %s WHERE thread_id = %s",
                                   (garbage, thread_id)).rowcount
        assert changed > 0
        return
    db = sqlite3.connect(home / "checkpoints.sqlite")
    try:
        (last,) = db.execute("SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id = ?", (thread_id,)).fetchone()
        db.execute("UPDATE checkpoints SET checkpoint = ? WHERE thread_id = ? AND checkpoint_id = ?",
                   (garbage, thread_id, last))
        db.commit()
        assert db.execute("PRAGMA quick_check").fetchone() == ("ok",)  # the file is sound, one value is not
    finally:
        db.close()


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_one_damaged_checkpoint_does_not_stop_the_others(backend, isolated_home):
    # this test's ASTRA_HOME, and the fresh database the backend fixture set (cli_env leaves it out as secret)
    env = cli_env(**({"ASTRA_DATABASE_URL": os.environ["ASTRA_DATABASE_URL"]} if backend == "postgres" else {}))
    killed = run_cli("run", "alpha", "--thread-id", "good-1", env={**env, "ASTRA_CRASH_AT": "after:observe"})
    assert killed.returncode == -9, (killed.stdout, killed.stderr)  # interrupted: it has work left to resume
    for thread_id, garbage in GARBAGE.items():
        done = run_cli("run", "alpha", "--thread-id", thread_id, env=env)
        assert done.returncode == 0, (done.stdout, done.stderr)
        _damage(backend, isolated_home, thread_id, garbage)
    where = "PostgreSQL database" if backend == "postgres" else str(isolated_home / "checkpoints.sqlite")

    listing = run_cli("threads", "--json", env=env)
    assert listing.returncode == 0, (listing.stdout, listing.stderr)
    assert "Traceback" not in listing.stderr
    rows = {row["thread_id"]: row for row in json.loads(listing.stdout)}
    assert rows["good-1"]["status"] == "interrupted"
    for thread_id in GARBAGE:
        assert rows[thread_id]["status"] == "unreadable" and rows[thread_id]["project"] == rows["good-1"]["project"]  # from its registration
        notes = [line for line in listing.stderr.splitlines() if thread_id in line]
        assert len(notes) == 1 and where in notes[0] and "damaged" in notes[0] and "new thread id" in notes[0]
    table = run_cli("threads", env=env)
    assert table.returncode == 0 and "good-1" in table.stdout and "unreadable" in table.stdout

    for thread_id in GARBAGE:
        refused = run_cli("resume", thread_id, env=env)
        assert refused.returncode == 2, (refused.stdout, refused.stderr)
        assert "Traceback" not in refused.stderr
        (line,) = refused.stderr.strip().splitlines()
        assert line.startswith(f"error: thread {thread_id}:") and where in line and "new thread id" in line

    resumed = run_cli("resume", "good-1", "--json", env=env)
    assert resumed.returncode == 0, (resumed.stdout, resumed.stderr)
    assert json.loads(resumed.stdout)["status"] == "fixed"
    after = {row["thread_id"]: row["status"] for row in json.loads(run_cli("threads", "--json", env=env).stdout)}
    assert after == {"good-1": "fixed", "bad-int": "unreadable", "bad-bytes": "unreadable"}


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_a_damaged_thread_can_be_deleted_and_the_others_stay(backend, isolated_home):
    """Invariant (i)'s way out for a thread: `threads delete ID` removes a thread whose checkpoint
    cannot be read (its checkpoints, saved writes and registration, through the saver's own
    ``delete_thread``), and the other threads list and resume as before. On main no command did."""
    env = cli_env(**({"ASTRA_DATABASE_URL": os.environ["ASTRA_DATABASE_URL"]} if backend == "postgres" else {}))
    killed = run_cli("run", "alpha", "--thread-id", "good-1", env={**env, "ASTRA_CRASH_AT": "after:observe"})
    assert killed.returncode == -9, (killed.stdout, killed.stderr)
    done = run_cli("run", "alpha", "--thread-id", "bad-1", env=env)
    assert done.returncode == 0, (done.stdout, done.stderr)
    _damage(backend, isolated_home, "bad-1", GARBAGE["bad-bytes"])
    before = {r["thread_id"]: r["status"] for r in json.loads(run_cli("threads", "--json", env=env).stdout)}
    assert before == {"good-1": "interrupted", "bad-1": "unreadable"}
    (note,) = [line for line in run_cli("threads", env=env).stderr.splitlines() if "bad-1" in line]
    assert "`astra-memory threads delete bad-1` removes this one" in note  # the way out, where it is needed

    deleted = run_cli("threads", "delete", "bad-1", env=env)
    assert deleted.returncode == 0 and "Traceback" not in deleted.stderr, (deleted.stdout, deleted.stderr)
    assert deleted.stdout.startswith("deleted session bad-1") and "run folder" in deleted.stdout
    listing = run_cli("threads", "--json", env=env)
    assert listing.returncode == 0 and "bad-1" not in listing.stderr, listing.stderr
    assert {r["thread_id"]: r["status"] for r in json.loads(listing.stdout)} == {"good-1": "interrupted"}
    assert _stored_rows(backend, isolated_home, "bad-1") == 0  # nothing of it left in the database

    again = run_cli("threads", "delete", "bad-1", env=env)
    assert again.returncode != 0 and "no session with thread id 'bad-1'" in again.stderr, again.stderr
    resumed = run_cli("resume", "good-1", "--json", env=env)
    assert resumed.returncode == 0 and json.loads(resumed.stdout)["status"] == "fixed", resumed.stderr


def _stored_rows(backend: str, home, thread_id: str) -> int:
    """The rows that name ``thread_id`` in the checkpoint tables and the thread registry."""
    tables = (["checkpoints", "checkpoint_blobs", "checkpoint_writes", "astra_threads"] if backend == "postgres"
              else ["checkpoints", "writes", "astra_threads"])
    if backend == "postgres":
        import psycopg

        with psycopg.connect(os.environ["ASTRA_DATABASE_URL"], autocommit=True) as conn:
            return sum(conn.execute(f"SELECT count(*) FROM {t} WHERE thread_id = %s", (thread_id,)).fetchone()[0]
                       for t in tables)
    db = sqlite3.connect(home / "checkpoints.sqlite")
    try:
        return sum(db.execute(f"SELECT count(*) FROM {t} WHERE thread_id = ?", (thread_id,)).fetchone()[0]
                   for t in tables)
    finally:
        db.close()

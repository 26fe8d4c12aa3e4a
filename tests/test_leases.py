"""Leases (one runner per thread) and the thread registry, on a real SQLite file and a real PostgreSQL."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time

import pytest

from astra_memory.checkpoints import leases
from astra_memory.checkpoints.leases import (
    PostgresThreadTables,
    ThreadBusyError,
    open_sqlite_thread_tables,
    setup_postgres,
)
from astra_memory.db import postgres as pgconn
from tests.conftest import BACKENDS


@pytest.fixture(params=BACKENDS)
def tables_factory(request, tmp_path):
    """A function that opens a new, independent handle on one database (as another process would)."""
    opened, pools = [], []
    if request.param == "sqlite":
        path = tmp_path / "checkpoints.sqlite"

        def make():
            cm = open_sqlite_thread_tables(path)
            opened.append(cm)
            return cm.__enter__()
    else:
        url = request.getfixturevalue("pg_url")
        pgconn.prepare(url, "test", [setup_postgres])

        def make():
            cm = pgconn.open_pool(url, "test", size=2)
            pools.append(cm)
            return PostgresThreadTables(cm.__enter__())
    yield make
    for cm in opened + pools:
        cm.__exit__(None, None, None)


def _plant(tables, thread_id: str, *, pid: int, host: str, started: str = "", expires_in: float = 60.0) -> None:
    now = time.time()
    with tables.transaction() as db:
        db.execute("INSERT INTO astra_thread_leases (thread_id, token, pid, host, process_started, acquired_at, "
                   "heartbeat_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (thread_id, "planted", pid, host, started, "2026-01-01T00:00:00+00:00", now, now + expires_in))


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_second_holder_is_refused_naming_the_first(tables_factory):
    first, second = tables_factory(), tables_factory()
    lease = first.acquire("t-1")
    with pytest.raises(ThreadBusyError, match=rf"being run by process {lease.holder.pid} on host "):
        second.acquire("t-1")
    lease.release()
    second.acquire("t-1").release()  # free again once released


@pytest.mark.parametrize("case", ["pid gone", "pid reused", "heartbeat expired elsewhere"])
def test_a_dead_holders_lease_is_taken_over(tables_factory, case):
    tables = tables_factory()
    here = socket.gethostname()
    if case == "pid gone":
        _plant(tables, "t-dead", pid=_dead_pid(), host=here)
    elif case == "pid reused":  # our own pid, but a process that started at another time
        _plant(tables, "t-dead", pid=leases.os.getpid(), host=here, started="1")
    else:
        _plant(tables, "t-dead", pid=1, host="another-host", expires_in=-1)
    lease = tables.acquire("t-dead")
    assert tables.holder("t-dead").token == lease.holder.token
    lease.release()


def test_a_live_holder_elsewhere_is_respected(tables_factory):
    tables = tables_factory()
    _plant(tables, "t-remote", pid=1, host="another-host", expires_in=60)
    with pytest.raises(ThreadBusyError, match="process 1 on host another-host"):
        tables.acquire("t-remote")


def test_racing_takeovers_of_one_dead_lease_have_one_winner(tables_factory):
    _plant(tables_factory(), "t-race", pid=_dead_pid(), host=socket.gethostname())
    contenders = [tables_factory() for _ in range(6)]
    results: list[bool] = []
    start = threading.Barrier(len(contenders))

    def contend(tables):
        start.wait()
        mine, _ = tables.try_acquire("t-race")
        results.append(mine is not None)

    workers = [threading.Thread(target=contend, args=(t,)) for t in contenders]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert sorted(results) == [False] * 5 + [True]


def test_heartbeat_keeps_the_lease_and_notices_a_loss(tables_factory, monkeypatch):
    monkeypatch.setattr(leases, "HEARTBEAT_S", 0.05)
    tables = tables_factory()
    lease = tables.acquire("t-beat")
    first = tables.holder("t-beat").expires_at
    time.sleep(0.3)
    assert tables.holder("t-beat").expires_at > first
    lease.check()
    with tables.transaction() as db:  # someone else took it over (as after a long stall)
        db.execute("UPDATE astra_thread_leases SET token = 'thief' WHERE thread_id = ?", ("t-beat",))
    time.sleep(0.3)
    with pytest.raises(ThreadBusyError, match="lost its lease"):
        lease.check()
    lease.release()
    assert tables.holder("t-beat").token == "thief"  # release never deletes another holder's lease


def test_registry_keeps_the_first_task(tables_factory):
    tables = tables_factory()
    assert tables.register("t-reg", {"prompt": "fix it", "script": [{"tool": "finish", "args": {}}]})
    assert not tables.register("t-reg", {"prompt": "other"})
    assert tables.registered("t-reg")["prompt"] == "fix it" and tables.registered("nope") is None
    assert [tid for tid, _ in tables.registered_ids()] == ["t-reg"]

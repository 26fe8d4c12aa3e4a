"""Two copies of the suite at once, as the same user, do not share a folder (issue 22, section 6: a
PostgreSQL data directory under pytest's shared base temp was rotated away by another run), and the
suite's server is checked alive before each PostgreSQL test and restarted when it is not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli_env

INNER = '''import json, os


def test_where(pg_server, pg_url, tmp_path, tmp_path_factory):
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE mine (x int)")
    out = os.environ["WHERE_OUT"]
    with open(out, "w") as handle:
        json.dump({"basetemp": str(tmp_path_factory.getbasetemp()), "pgdata": str(pg_server.pgdata)}, handle)
'''


def test_two_runs_at_once_use_folders_of_their_own(tmp_path):
    """Two real pytest runs of a PostgreSQL test, started together with this suite's conftest."""
    (tmp_path / "test_inner.py").write_text(INNER)
    runs = []
    for name in ("a", "b"):
        env = cli_env(WHERE_OUT=str(tmp_path / f"{name}.json"))
        runs.append(subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest",
                                      str(tmp_path / "test_inner.py")], cwd=ROOT, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    outputs = [run.communicate(timeout=300)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], "\n".join(outputs)
    where = [json.loads((tmp_path / f"{name}.json").read_text()) for name in ("a", "b")]
    assert where[0]["basetemp"] != where[1]["basetemp"] and where[0]["pgdata"] != where[1]["pgdata"]
    for seen in where:  # neither under pytest's shared, rotated pytest-of-<user> folder
        assert "pytest-of-" not in seen["basetemp"] and "pytest-of-" not in seen["pgdata"]
        assert not Path(seen["basetemp"]).exists()  # a passing run removes its own folder
        assert not Path(seen["pgdata"]).exists()  # and its server's


def test_a_server_that_stopped_is_restarted_before_the_next_test(pg_holder):
    """The run's own server is stopped (another run's clean-up, a crash); the next test's check starts a new one."""
    first = pg_holder.ensure_alive()
    assert pg_holder.ensure_alive() is first  # alive: kept
    first.handle.cleanup()
    assert first.alive()  # says why it does not answer
    with pytest.warns(UserWarning, match="stopped answering"):
        second = pg_holder.ensure_alive()
    assert second is not first and second.alive() == "" and not first.pgdata.exists()
    second.new_database()  # usable: a fresh schema for the next test

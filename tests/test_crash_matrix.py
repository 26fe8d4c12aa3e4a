"""The crash matrix: SIGKILL a real session at every named point, resume it in a new process,
and compare with an uncrashed run of the same two-attempt scenario.

Kill points are reached deterministically (ASTRA_CRASH_AT, see astra_memory/crash.py), never by
sleeping. The points: after `run` registered the thread and before its first checkpoint (1), after
every node boundary of a two-attempt run (18), inside every model call (6), inside every test
subprocess (4: observe, two attempts, the fresh-copy confirmation), between each applied edit and
its checkpoint (2), between building the fresh copy and its test run (1), and between the memory
write and its checkpoint (1). Beside the matrix: two runners of one thread at once (one runs, the
other exits 2 naming the holder), and Ctrl-C (exit 130, says how to resume, and resume finishes).

One suite, both backends: the matrix is parametrised over SQLite (files under each point's own
ASTRA_HOME) and PostgreSQL (each point's own empty schema on the test server, passed to every
process as ASTRA_DATABASE_URL), so points running at the same time never share a thread or a record.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from astra_memory.events import read_events
from astra_memory.jittered_kills import NODE_SEQUENCE, two_attempt_scenario
from astra_memory.session.run import list_threads, open_agent
from astra_memory.settings import Settings
from tests.conftest import BACKENDS, ROOT, cli_env, run_cli


def _node_points() -> list[str]:
    seen: dict[str, int] = {}
    points = []
    for node in NODE_SEQUENCE:
        seen[node] = seen.get(node, 0) + 1
        points.append(f"after:{node}:#{seen[node]}")
    return points


POINTS = (["session:registered"] + _node_points() + [f"model:call:#{n}" for n in range(1, 7)] + [f"test:running:#{n}" for n in range(1, 5)]
          + ["edit:applied:#1", "edit:applied:#2", "confirm:copied", "store:written"])
THREAD = "crash-thread"


@pytest.fixture(scope="module")
def scenario_dir(tmp_path_factory) -> Path:
    return two_attempt_scenario(tmp_path_factory.mktemp("two-attempts"))


def _state(home: Path, url: str | None) -> dict:
    """The thread and the memory as a new process sees them (never from the test's environment)."""
    settings = Settings(home=home, embeddings="hash", database_url=url)
    with open_agent(settings) as agent:
        values = agent.graph.get_state(agent.config(THREAD)).values
        records = [r.memory_id for r in agent.memory.iter_records()]
        threads = list_threads(agent)
    return {"values": values, "records": records, "threads": threads}


def _run(home: Path, url: str | None, scenario_dir: Path, point: str | None) -> dict:
    env = cli_env(ASTRA_HOME=str(home), ASTRA_EMBEDDINGS="hash", **({"ASTRA_DATABASE_URL": url} if url else {}))
    if point is None:
        first = run_cli("run", str(scenario_dir), "--thread-id", THREAD, "--json", env=env)
        return {"first": first, "after": _state(home, url), "home": home, "url": url}
    crashed = run_cli("run", str(scenario_dir), "--thread-id", THREAD, "--json", env={**env, "ASTRA_CRASH_AT": point})
    before = _state(home, url)
    resumed = run_cli("resume", THREAD, "--json", env=env)
    return {"first": crashed, "before": before, "resumed": resumed, "after": _state(home, url), "home": home,
            "url": url}


@pytest.fixture(scope="module", params=BACKENDS)
def matrix(request, scenario_dir, tmp_path_factory) -> dict:
    """Every point (and the uncrashed reference) on one backend: its own ASTRA_HOME and, on
    PostgreSQL, its own empty schema, so the two sessions running at once share nothing."""
    base = tmp_path_factory.mktemp(f"matrix-{request.param}")
    server = request.getfixturevalue("pg_holder").ensure_alive() if request.param == "postgres" else None
    jobs = {None: base / "uncrashed", **{p: base / p.replace(":", "_").replace("#", "") for p in POINTS}}
    urls = {p: server.new_database() if server else None for p in jobs}
    with ThreadPoolExecutor(max_workers=2) as pool:  # two cores: two sessions at a time
        futures = {p: pool.submit(_run, home, urls[p], scenario_dir, p) for p, home in jobs.items()}
        return {p: f.result() for p, f in futures.items()}


def test_matrix_covers_every_named_point():
    assert len(POINTS) == 33 and len(set(POINTS)) == 33


def test_uncrashed_run_is_the_reference(matrix):
    ref = matrix[None]
    assert ref["first"].returncode == 0, ref["first"].stderr
    values = ref["after"]["values"]
    assert values["status"] == "fixed" and values["attempts"] == 2 and len(values["edits"]) == 2
    # observe, 2 attempts, confirm, and confirm without the edits (the bug must show there)
    assert values["confirm"]["passed"] and values["budget"]["test_runs"] == 5
    assert len(ref["after"]["records"]) == 1
    # On PostgreSQL nothing went to SQLite files: checkpoints, memory and ledger are in the database.
    assert sorted(p.name for p in ref["home"].glob("*.sqlite")) == (
        [] if ref["url"] else ["checkpoints.sqlite", "ledger.sqlite", "memory.sqlite"])


@pytest.mark.slow
@pytest.mark.parametrize("point", POINTS)
def test_crash_and_resume(matrix, point):
    run, ref = matrix[point], matrix[None]
    assert run["first"].returncode == -signal.SIGKILL, f"kill point {point} was not reached: {run['first'].stderr}"
    assert run["resumed"].returncode == 0, run["resumed"].stderr
    summary = json.loads(run["resumed"].stdout)
    final = run["after"]["values"]
    assert summary["status"] == final["status"] == "fixed"
    assert final["confirm"]["passed"] and final["confirm"]["edits_seen"] == 2  # confirmed in a fresh copy
    # Another process lists the killed thread, and resume by its id ran whatever was left.
    (listed,) = run["before"]["threads"]
    assert listed["thread_id"] == THREAD and summary["resumed"] is bool(listed["next"])
    values = run["before"]["values"]  # empty when killed before the first checkpoint: registered, not started
    assert listed["status"] == (values.get("status") or ("interrupted" if values else "not started"))
    # Source byte-identical to the uncrashed run: no edit applied twice, none lost.
    rel = Path("runs") / THREAD / "workspace" / "app" / "settings.py"
    assert (run["home"] / rel).read_bytes() == (ref["home"] / rel).read_bytes()
    assert [e["after_sha256"] for e in final["edits"]] == [e["after_sha256"] for e in ref["after"]["values"]["edits"]]
    # Exactly one memory record for the fix, the same id as the uncrashed run's.
    assert run["after"]["records"] == [final["stored_memory_id"]]
    # Counters never go down across the crash.
    before = run["before"]["values"].get("budget") or {}
    for key, value in before.items():
        assert final["budget"][key] >= value, key
    # The memory gate held in every process: every edit came after a delivered memory search.
    events = [e["event"] for e in read_events(run["home"] / "runs" / THREAD)]
    assert "memory_search" in events
    assert all(events[:i].count("memory_search") >= 1 for i, e in enumerate(events) if e == "edit")
    assert all(events[:i].count("diagnosis_search") >= 1 for i, e in enumerate(events) if e == "edit")
    assert final["memory"]["delivered"] is True


def _home_and_env(request, tmp_path, backend: str) -> tuple[Path, str | None, dict]:
    url = request.getfixturevalue("pg_server").new_database() if backend == "postgres" else None
    home = tmp_path / "home"
    env = cli_env(ASTRA_HOME=str(home), ASTRA_EMBEDDINGS="hash", **({"ASTRA_DATABASE_URL": url} if url else {}))
    return home, url, env


def _counts(home: Path) -> dict[str, int]:
    events = [e["event"] for e in read_events(home / "runs" / THREAD)]
    return {kind: events.count(kind) for kind in ("edit", "test", "store")}


EXPECTED_COUNTS = {"edit": NODE_SEQUENCE.count("edit"), "test": NODE_SEQUENCE.count("test"),
                   "store": NODE_SEQUENCE.count("store")}


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_runners_at_once(request, tmp_path, scenario_dir, backend):
    """A held runner keeps the thread; a second `resume` (and a `run` with the same id) exits 2
    naming it; the first finishes, and the event log has each edit, test and store exactly once."""
    home, url, env = _home_and_env(request, tmp_path, backend)
    crashed = run_cli("run", str(scenario_dir), "--thread-id", THREAD, env={**env, "ASTRA_CRASH_AT": "after:memory_search"})
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    hold = tmp_path / "release"
    first = subprocess.Popen([sys.executable, "-m", "astra_memory", "resume", THREAD, "--json"], cwd=ROOT,
                             env={**env, "ASTRA_HOLD_AT": "after:edit", "ASTRA_HOLD_FILE": str(hold)},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not Path(f"{hold}.reached").exists():  # the first runner is inside the thread, past its first edit
        assert first.poll() is None and time.monotonic() < deadline, first.communicate()
        time.sleep(0.05)
    for args in (("resume", THREAD), ("run", str(scenario_dir), "--thread-id", THREAD)):
        second = run_cli(*args, env=env)
        assert second.returncode == 2, second.stderr
        assert f"is being run by process {first.pid} on host" in second.stderr and "Traceback" not in second.stderr
    hold.touch()
    out, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    assert json.loads(out)["status"] == "fixed"
    assert _counts(home) == EXPECTED_COUNTS
    assert len(_state(home, url)["records"]) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_ctrl_c_says_how_to_resume(request, tmp_path, scenario_dir, backend):
    home, url, env = _home_and_env(request, tmp_path, backend)
    stopped = run_cli("run", str(scenario_dir), "--thread-id", THREAD,
                      env={**env, "ASTRA_CRASH_AT": "after:edit", "ASTRA_CRASH_SIGNAL": "INT"})
    assert stopped.returncode == 130, stopped.stderr
    assert f"astra-memory resume {THREAD}" in stopped.stderr and "Traceback" not in stopped.stderr
    resumed = run_cli("resume", THREAD, "--json", env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["status"] == "fixed"
    assert _counts(home) == EXPECTED_COUNTS
    assert len(_state(home, url)["records"]) == 1

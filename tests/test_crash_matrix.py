"""The crash matrix: SIGKILL a real session at every named point, resume it in a new process,
and compare with an uncrashed run of the same two-attempt scenario.

Kill points are reached deterministically (ASTRA_CRASH_AT, see astra_memory/crash.py), never by
sleeping. The points: after `run` registered the thread and before its first checkpoint (1), after
every node boundary of a two-attempt run (18), inside every model call (6), inside every test
subprocess (4: observe, two attempts, the fresh-copy confirmation), between each applied edit and
its checkpoint (2), between building the fresh copy and its test run (1), and between the memory
write and its checkpoint (1). Beside the matrix: two runners of one thread at once (one runs, the
other exits 2 naming the holder), and Ctrl-C (exit 130, says how to resume, and resume finishes).

The points are killed in chains: a `run` killed at a chain's first point, its `resume` killed at
the next, and so on, the last `resume` left to finish; each process's trace of the points it passed
(ASTRA_CRASH_TRACE) must be the uncrashed run's from the last checkpoint written up to its kill, so
every kill lands exactly where a kill of a fresh run at that point would, and every resume starts
from a real crash. That takes one CLI process per point instead of a whole session per point.

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


def _reached(trace: Path) -> list[str]:
    """The points a process reached, in order (crash.py ``ASTRA_CRASH_TRACE``); the checkpointer's own
    (``inside:``, ``writes:``, some from LangGraph's writer threads) are not in the matrix."""
    lines = trace.read_text().splitlines() if trace.exists() else []
    return [name for name in lines if not name.startswith(("inside:", "writes:"))]


def _restart(reference: list[str], index: int) -> int:
    """Where in the uncrashed run's points a resume starts after a kill at ``reference[index]``: just
    after the last node checkpoint written (``after:NODE``, the kill point itself included)."""
    return next((i + 1 for i in range(index, -1, -1) if reference[i].startswith("after:")), 0)


def _global_index(reference: list[str], point: str) -> int:
    """Where ``point`` (``name:#N``, counted in a fresh run) is in the uncrashed run's points."""
    name, _, nth = point.partition(":#")
    return [i for i, reached in enumerate(reference) if reached == name][int(nth or 1) - 1]


def _chain(home: Path, url: str | None, scenario_dir: Path, points: list[str], reference) -> dict:
    """One session killed at each of ``points`` in turn, in the order an uncrashed run reaches them:
    the first by `run`, each next one inside the `resume` of the previous kill (its count restarted
    in the new process, so computed from the uncrashed run's points, ``reference()``), then resumed
    to the end. Every process's trace proves where its kill landed."""
    env = cli_env(ASTRA_HOME=str(home), ASTRA_EMBEDDINGS="hash", **({"ASTRA_DATABASE_URL": url} if url else {}))
    links, start = {}, 0
    for n, point in enumerate(points):
        trace = home.parent / f"{home.name}.trace{n}"
        if n == 0:  # a fresh run: the point as named
            args, at = ("run", str(scenario_dir), "--thread-id", THREAD, "--json"), point
        else:
            args, name = ("resume", THREAD, "--json"), point.partition(":#")[0]
            at = f"{name}:#{reference()[start:_global_index(reference(), point) + 1].count(name)}"
        killed = run_cli(*args, env={**env, "ASTRA_CRASH_AT": at, "ASTRA_CRASH_TRACE": str(trace)})
        links[point] = {"first": killed, "command": args[0], "start": start, "reached": _reached(trace),
                        "before": _state(home, url)}
        if n + 1 < len(points):
            start = _restart(reference(), _global_index(reference(), point))
    resumed = run_cli("resume", THREAD, "--json", env=env)
    return {"links": links, "resumed": resumed, "after": _state(home, url), "home": home, "url": url}


def _reference(home: Path, url: str | None, scenario_dir: Path) -> dict:
    """The uncrashed run, tracing the points it passes (none is armed to kill)."""
    env = cli_env(ASTRA_HOME=str(home), ASTRA_EMBEDDINGS="hash", **({"ASTRA_DATABASE_URL": url} if url else {}))
    trace = home.parent / f"{home.name}.trace"
    first = run_cli("run", str(scenario_dir), "--thread-id", THREAD, "--json", env={**env, "ASTRA_CRASH_TRACE": str(trace)})
    return {"first": first, "after": _state(home, url), "home": home, "url": url, "reached": _reached(trace)}


def _chains(reference: list[str]) -> list[list[str]]:
    """The chains the points are killed in: "session:registered" alone (a thread registered and never
    started resumes from its task: its resume's summary is checked as such), the others in two
    chains taking turns in the order the uncrashed run reached them (two cores: two sessions at once)."""
    rest = sorted((p for p in POINTS if p != "session:registered"), key=lambda p: _global_index(reference, p))
    return [rest[0::2], rest[1::2]]


@pytest.fixture(scope="module", params=BACKENDS)
def matrix(request, scenario_dir, tmp_path_factory) -> dict:
    """Every point (and the uncrashed reference) on one backend: each chain its own ASTRA_HOME and,
    on PostgreSQL, its own empty schema, so the two sessions running at once share nothing."""
    base = tmp_path_factory.mktemp(f"matrix-{request.param}")
    server = request.getfixturevalue("pg_holder").ensure_alive() if request.param == "postgres" else None
    url = server.new_database if server else (lambda: None)
    with ThreadPoolExecutor(max_workers=2) as pool:
        uncrashed = pool.submit(_reference, base / "uncrashed", url(), scenario_dir)
        chains = [pool.submit(_chain, base / "chain0", url(), scenario_dir, ["session:registered"], list)]
        reference = uncrashed.result()["reached"]
        chains += [pool.submit(_chain, base / f"chain{n}", url(), scenario_dir, points, lambda: reference)
                   for n, points in enumerate(_chains(reference), start=1)]
        by_point = {point: chain.result() for chain in chains for point in chain.result()["links"]}
        return {None: uncrashed.result(), **by_point}


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
    # It passed every point of the matrix (each N-th time: the N-th occurrence is there).
    assert all(_global_index(ref["reached"], point) >= 0 for point in POINTS)


@pytest.mark.slow
@pytest.mark.parametrize("point", POINTS)
def test_crash_and_resume(matrix, point):
    run, ref = matrix[point], matrix[None]
    link = run["links"][point]
    assert link["first"].returncode == -signal.SIGKILL, f"kill point {point} was not reached: {link['first'].stderr}"
    # The kill landed at this point of the uncrashed run: the process (a fresh `run`, or the `resume`
    # of the chain's previous kill) passed exactly the points the uncrashed run passes from the last
    # checkpoint written up to this one (a resume repeats no finished node and skips none).
    expected = ref["reached"][link["start"]:_global_index(ref["reached"], point) + 1]
    if link["command"] == "resume":
        expected = [p for p in expected if p != "session:registered"]  # only `run` registers a thread
    assert link["reached"] == expected
    assert run["resumed"].returncode == 0, run["resumed"].stderr
    summary = json.loads(run["resumed"].stdout)
    final = run["after"]["values"]
    assert summary["status"] == final["status"] == "fixed"
    assert final["confirm"]["passed"] and final["confirm"]["edits_seen"] == 2  # confirmed in a fresh copy
    # Another process lists the killed thread, and resume by its id ran whatever was left: the last
    # kill's resume says so; an earlier kill's resume went on from its last checkpoint (the next
    # kill's trace above), so the thread had a next node to run.
    (listed,) = link["before"]["threads"]
    assert listed["thread_id"] == THREAD
    last = list(run["links"])[-1] == point
    assert (summary["resumed"] is bool(listed["next"])) if last else listed["next"]
    values = link["before"]["values"]  # empty when killed before the first checkpoint: registered, not started
    assert listed["status"] == (values.get("status") or ("interrupted" if values else "not started"))
    # Source byte-identical to the uncrashed run: no edit applied twice, none lost.
    rel = Path("runs") / THREAD / "workspace" / "app" / "settings.py"
    assert (run["home"] / rel).read_bytes() == (ref["home"] / rel).read_bytes()
    assert [e["after_sha256"] for e in final["edits"]] == [e["after_sha256"] for e in ref["after"]["values"]["edits"]]
    # Exactly one memory record for the fix, the same id as the uncrashed run's.
    assert run["after"]["records"] == [final["stored_memory_id"]]
    # Counters never go down across the crash.
    before = values.get("budget") or {}
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

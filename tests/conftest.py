"""Every test gets its own data directory and no secrets; embeddings are deterministic unless a
test asks for the real packaged MiniLM (marker `minilm`)."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

from astra_memory.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
_ACTIAN_URL = os.environ.get("ACTIAN_VECTORAI_URL")  # read before the autouse fixture scrubs the environment
# Vendored projects (tests/data: a real library with its own tests, for end-to-end sessions) are
# projects under repair, never part of this suite.
collect_ignore_glob = ["data/*"]
# The tests run as from a shell whose virtualenv is the tool's own: a --workspace task's tests run on
# the invoking shell's PATH (testrun/run.project_environment), so `python -m pytest` there is ours.
if str(Path(sys.executable).parent) not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = os.pathsep.join(filter(None, [str(Path(sys.executable).parent), os.environ.get("PATH")]))


# Ctrl-C is part of what the suite tests (a CLI child sent SIGINT must stop and say how to resume). A
# suite started in the background of a non-interactive shell (`cmd &`) inherits SIGINT *ignored*, and
# an ignored signal stays ignored across exec: every child would run through its Ctrl-C. Handled here,
# so the children start with the default (Python then installs its KeyboardInterrupt handler).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """The run's temp folders in a directory this run owns: pytest's shared base temp keeps only the
    last three runs of a user, so a second suite started beside this one would delete folders this
    one is still using (a PostgreSQL data directory among them). ``--basetemp`` still wins."""
    if config.option.basetemp is None and not hasattr(config, "workerinput"):
        config.option.basetemp = tempfile.mkdtemp(prefix="astra-tests-")
        config.add_cleanup(lambda: _remove_if_passed(config))
    # The projects under repair run their tests on our interpreter, whose site-packages hold pytest plugins
    # they never use (xdist, anyio, platformdirs', langsmith's, which imports langsmith's client: about 1.3
    # CPU-s of each run's 1.5): autoloading is turned off for every process this suite starts, as a shell
    # would (the tests' environment passes the switch through: testrun/run.py PASSED_THROUGH_ENV). Not in an
    # xdist controller, whose workers need their plugin: they set it themselves, once started.
    controller = bool(getattr(config.option, "numprocesses", None)) and not hasattr(config, "workerinput")
    if not controller:
        os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"


def _remove_if_passed(config) -> None:
    if getattr(config, "_astra_failed", True) is False:
        shutil.rmtree(config.option.basetemp, ignore_errors=True)


# The longest files of a run, longest first: they start first, so the workers end together. Measured
# 2026-12-07 on a clean clone, quiet machine (issue 34: the junit report's time per file, 2 workers; 1,176
# worker-seconds in all). pytest-xdist's loadfile would start the files with most tests first and the few-test
# long ones (a pip install, `langgraph dev`) last, one worker then running them alone.
# A stale list only costs balance, never a test (scripts/test.sh: --no-loadscope-reorder).
LONGEST_FIRST = ("test_studio_memory.py", "test_crash_matrix.py", "test_fast_embeddings.py", "test_attempts.py",
                 "test_gates.py", "test_fresh_install.py", "test_mcp_server.py", "test_replay.py",
                 "test_confirmations.py", "test_damaged_checkpoint.py", "test_studio_interrupts.py",
                 "test_bench_retrieval.py", "test_postgres_load.py", "test_diff_byte_for_byte.py",
                 "test_changed_memory_rows.py", "test_replay_trust.py", "test_isolation.py",
                 "test_environment_snapshot.py", "test_damaged_rows_deleted.py", "test_load.py", "test_studio_live.py",
                 "test_live_wire.py", "test_damaged_state.py", "test_postgres.py")


def _start_rank(item) -> tuple[int, int]:
    name = item.path.name
    if name in LONGEST_FIRST:
        return (0, LONGEST_FIRST.index(name))
    return (1, 0) if item.get_closest_marker("slow") else (2, 0)


def pytest_collection_modifyitems(config, items):
    """Files with slow tests first (the longest measured first), each file's tests kept in order."""
    rank: dict = {}
    for item in items:  # a file's rank: its highest-ranked test's
        rank[item.path] = min(rank.get(item.path, (2, 0)), _start_rank(item))
    items.sort(key=lambda item: rank[item.path])  # stable: each file's tests keep their order


def pytest_sessionfinish(session, exitstatus):
    session.config._astra_failed = exitstatus not in (0, 5)
SECRET_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ASTRA_MODEL", "ASTRA_DATABASE_URL", "ASTRA_CRASH_AT",
               "ASTRA_MIN_SCORE", "ASTRA_MIN_FUSED_SCORE", "ASTRA_EMBEDDING_MODEL_PATH")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch, request):
    home = tmp_path / "astra-home"
    monkeypatch.setenv("ASTRA_HOME", str(home))
    for name in SECRET_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ASTRA_EMBEDDINGS", "minilm" if request.node.get_closest_marker("minilm") else "hash")
    # The day the price expectations were written: a model's shutdown date or the price table's age
    # must not fail the suite months later (astra_memory/costs/prices.py current_date).
    monkeypatch.setenv("ASTRA_PRICE_DATE", "2026-12-02")
    return home


# The memory backends' conformance fixture, one line per backend: its test memory (a fresh target its
# opener in astra_memory/backends/open.py claims) and the setting that moves an installation's memory
# there (None: the default). `store`, and every test that parametrizes `backend`, runs on each.
MEMORY_TARGETS = {
    "sqlite": (lambda request, tmp_path: tmp_path / "memory.sqlite", None),
    "postgres": (lambda request, tmp_path: request.getfixturevalue("pg_url"), "ASTRA_DATABASE_URL"),
}
if _ACTIAN_URL:  # a live VectorAI DB (its server runs only in Docker): a collection per test
    MEMORY_TARGETS["actian"] = (lambda request, tmp_path: f"vectorai://{_ACTIAN_URL}/t_{uuid.uuid4().hex[:12]}",
                                "ASTRA_VECTORAI_URL")
BACKENDS = list(MEMORY_TARGETS)


@pytest.fixture(scope="session")
def pg_holder():
    """One real PostgreSQL + pgvector for the whole run, in a directory the suite owns (tests/pg.py);
    fails, never skips, if it cannot start."""
    from tests.pg import ServerHolder

    holder = ServerHolder()
    yield holder
    holder.stop()


@pytest.fixture
def pg_server(pg_holder):
    """The run's server, checked alive (and restarted if it is not) before each test that needs it."""
    return pg_holder.ensure_alive()


@pytest.fixture
def pg_url(pg_server) -> str:
    """A fresh, empty database on the test server."""
    return pg_server.new_database()


@pytest.fixture(params=BACKENDS)
def store(request, tmp_path):
    """A memory store on each backend (a SQLite file, a PostgreSQL database), hash embeddings."""
    from astra_memory.backends.open import open_memory_store
    from astra_memory.stores.embeddings import HashEmbeddings

    target = MEMORY_TARGETS[request.param][0](request, tmp_path)
    with open_memory_store(target, HashEmbeddings(), setting="test memory") as opened:
        yield opened.store


@pytest.fixture
def backend(request, monkeypatch, tmp_path) -> str:
    """The backend `settings` (and so `agent`) opens: "sqlite" unless a module parametrizes it with
    ``pytest.mark.parametrize("backend", BACKENDS, indirect=True)``; another points its setting at a
    fresh test memory (``MEMORY_TARGETS``): "postgres", ASTRA_DATABASE_URL at a fresh, empty database
    (schema) of the test server."""
    name = getattr(request, "param", "sqlite")
    target, setting = MEMORY_TARGETS[name]
    if setting is not None:
        monkeypatch.setenv(setting, str(target(request, tmp_path)))
    return name


@pytest.fixture
def settings(isolated_home, backend) -> Settings:
    return Settings()


@pytest.fixture
def agent(settings):
    from astra_memory.session.run import open_agent

    with open_agent(settings) as opened:
        yield opened


def cli_env(**extra: str) -> dict[str, str]:
    """Environment for a CLI subprocess: this test's settings, nothing secret."""
    env = {k: v for k, v in os.environ.items() if k not in SECRET_VARS}
    env.update(extra)
    return env


def run_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 300):
    """``python -m astra_memory ARGS`` in its own process, output captured; forked from a warm launcher
    that has the CLI's third-party libraries imported (tests/cli_launcher.py)."""
    from tests.cli_launcher import run

    return run(list(args), env=env or cli_env(), cwd=ROOT, timeout=timeout)


LIVE_COST_VARS = ("ASTRA_APPROVE_LIVE_COST", "ASTRA_SESSION_BUDGET_USD", "ASTRA_TOTAL_BUDGET_USD",
                  "ASTRA_PRICE_IN_PER_MTOK", "ASTRA_PRICE_OUT_PER_MTOK")


@pytest.fixture(autouse=True)
def no_live_cost_settings(monkeypatch):
    """A developer's own live-cost approval, budgets, prices or run knobs (ASTRA_MAX_ATTEMPTS, ...)
    must not leak into any test (or its CLI subprocesses, which inherit this environment)."""
    from astra_memory.context import KNOBS

    for name in LIVE_COST_VARS + tuple(f.metadata["env"] for f in KNOBS.values() if f.metadata.get("env")):
        monkeypatch.delenv(name, raising=False)

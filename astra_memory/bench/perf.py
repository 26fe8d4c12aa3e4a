"""Perf bench: what memory search, durability and start-up cost, measured side by side in one run.

1. **Memory search latency** at growing sizes (1k, 10k, 100k records by default) on each backend
   (SQLite by default), split into its two parts: the query embedding (MiniLM, independent of
   size) and the vector search (the store's own ``search`` with the query vector already
   computed), plus the whole ``FixMemory.search_codebase_memory`` call; beside it, exact search
   over the very same vectors with numpy as the floor. Records are realistic: MiniLM vectors of a
   few hundred real texts from the scenario corpus plus small Gaussian noise (re-normalised),
   each with a full record value; they are inserted through the store's own put path
   (``BaseStore.batch`` of ``PutOp``s, the operation ``store.put`` issues) with the vectors
   precomputed, so building 100k records does not mean embedding 100k texts. Each row carries the
   floor (embedding p50 + numpy p50) and the ratios to it, and the first search after that size's
   writes (SQLite reads its in-process matrix of vectors again then: backends/sqlite/search.py).
2. **Cost of durability**: the same scripted session with LangGraph's SQLite checkpointer and with
   ``InMemorySaver``, and the share of the session's wall time spent inside the project's test
   subprocess (``TestRun.duration_s`` of every run in ``state['test_runs']``).
3. **Cold start** of ``astra-memory memory search`` as a whole process (interpreter, imports,
   model load, one search), next to ``astra-memory --help`` (interpreter and CLI imports only), with
   the ratios of their wall p50s (and to the embedding floor).
4. **Cost of judging a test run** (issue #21): one run of the scenario's tests, its bug fixed, by
   exit code only (as before), with pytest's per-test results read against observe's, and with
   the environment held still as well (mounted read-only for the step where that works here, and
   checked by full manifest), and in the private root every test step of a session runs in
   (testrun/private_root.py, nodes/common.py ``private_step``: ``private_root_extra_ms``, the median
   same-round difference with vs without it, shown in perf.md and the terminal); modes
   interleaved in the same run, median ms per run and the extra over exit code only (median of
   the same-round differences), plus what recording the environment at observe costs once per
   session.

Backends: ``BACKENDS`` maps a name to a context manager that yields a set-up ``BaseStore`` for a
given folder and embeddings (``perf_vectors.sqlite_backend``); ``resolve_backend("postgres")``
imports ``perf_postgres`` only when asked, and ``--backends sqlite,postgres`` then measures both in
the same run. A backend may also bring row metrics, measured on its store at each size and merged
into its latency rows: PostgreSQL adds ``hnsw`` (recall@3 of its HNSW search against exact search
on the same queries).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings
from langgraph.checkpoint.memory import InMemorySaver

from astra_memory.backends.sqlite.store import open_sqlite_store
from astra_memory.bench.common import machine_info, make_progress, stopwatch, summary_ms
from astra_memory.bench.perf_vectors import (
    NAMESPACE,
    NOISE_SIGMA,
    PrecomputedEmbeddings,
    corpus_texts,
    noisy_vectors,
    put_vectors,
    real_queries,
    record_template,
    sqlite_backend,
    timed,
)
from astra_memory.checkpoints import open_checkpointer
from astra_memory.context import Context
from astra_memory.errors import ConfigurationError
from astra_memory.graph import builder
from astra_memory.nodes.common import private_step
from astra_memory.scenarios import load_scenario
from astra_memory.session.run import Agent, scenario_task, start_session
from astra_memory.settings import Settings
from astra_memory.stores.embeddings import make_embeddings
from astra_memory.stores.memory import FixMemory
from astra_memory.testrun.isolation import degraded_reason, read_only_supported
from astra_memory.testrun.manifest import (
    GUARD_MANIFEST,
    GUARD_READ_ONLY,
    record_environment,
)
from astra_memory.testrun.results import Baseline
from astra_memory.testrun.run import run_tests
from astra_memory.testrun.run import test_environment as step_environment
from astra_memory.workspace.files import Workspace

DEFAULT_SIZES = (1_000, 10_000, 100_000)
COLD_START_QUERY = "AssertionError: second origin rejected after comma"
BackendFactory = Callable[[Path, Embeddings], AbstractContextManager]
RowMetrics = Callable[[Any, list[str]], dict[str, Any]]  # (store, query texts) -> fields for the row


BACKENDS: dict[str, BackendFactory] = {"sqlite": sqlite_backend}


def resolve_backend(name: str) -> tuple[BackendFactory, RowMetrics | None]:
    """A backend's factory and the extra measurements its rows carry. PostgreSQL is imported only when
    asked for (its driver is an optional extra; a missing one is reported, not fatal)."""
    if name == "postgres":
        try:
            from astra_memory.bench import perf_postgres
        except ImportError as exc:
            raise ConfigurationError(f"backend {name!r} is not available: {exc}") from None
        return perf_postgres.postgres_backend, perf_postgres.perf_row_metrics
    if name not in BACKENDS:
        raise ConfigurationError(f"unknown backend {name!r}; known: postgres, {', '.join(sorted(BACKENDS))}")
    return BACKENDS[name], None




# -- 1. search latency ------------------------------------------------------------------------------

def search_latency(sizes: list[int], backends: list[str], *, repeats: int, model: Embeddings,
                   queries: list[str], progress, workdir: Path) -> dict[str, Any]:
    """Latency rows per backend and size, with the numpy floor over the same vectors."""
    import numpy as np


    sizes = sorted(set(sizes))
    texts = corpus_texts()
    task = progress.add_task("perf: embedding corpus texts", total=1)
    base = np.asarray(model.embed_documents(texts), dtype=np.float32)
    progress.advance(task)

    # Query vectors precomputed (the vector-search timing); the embedding is timed on its own.
    query_vectors = np.asarray(model.embed_documents(queries), dtype=np.float32)
    template = record_template()
    rows: list[dict[str, Any]] = []
    build: dict[str, Any] = {}
    cycle = iter(range(10**9))  # one counter for the whole run: no query text is ever repeated
    for backend in backends:
        factory, row_metrics = resolve_backend(backend)
        embeddings = PrecomputedEmbeddings(model)
        for text, vector in zip(queries, query_vectors, strict=True):
            embeddings.table[text] = vector.tolist()
        folder = workdir / f"latency-{backend}"
        folder.mkdir(parents=True, exist_ok=True)
        all_vectors = np.zeros((0, base.shape[1]), dtype=np.float32)
        ids: list[str] = []
        task = progress.add_task(f"perf: {backend} build + search", total=max(sizes) + len(sizes) * repeats)
        insert_s = 0.0
        with factory(folder, embeddings) as store:
            memory = FixMemory(store)
            for size in sizes:
                have = len(ids)
                vectors, picks = noisy_vectors(base, size - have, start=have)
                started = time.perf_counter()
                for count in put_vectors(store, embeddings, template, texts, vectors, picks, have, ids):
                    progress.advance(task, count)
                insert_s += time.perf_counter() - started
                all_vectors = np.concatenate([all_vectors, vectors])

                qv = query_vectors

                # Each closure is timed in this iteration; the defaults bind this size's values by name.
                def store_search(store=store) -> None:
                    q = queries[next(cycle) % len(queries)]
                    store.search(NAMESPACE, query=q, limit=3)

                k = min(3, len(all_vectors) - 1)

                def numpy_search(qv=qv, all_vectors=all_vectors, k=k) -> None:
                    q = qv[next(cycle) % len(qv)]
                    scores = all_vectors @ q
                    top = np.argpartition(-scores, k)[:3]
                    top[np.argsort(-scores[top])]  # the ranked top 3, as the store returns it

                def end_to_end(memory=memory) -> None:
                    n = next(cycle)
                    # A text the table has never seen: embedded by MiniLM inside the search, as in a session.
                    memory.search_codebase_memory(f"{queries[n % len(queries)]} ({n})", top_k=3, min_score=-1.0)

                def embed_only() -> None:
                    n = next(cycle)
                    model.embed_query(f"{queries[n % len(queries)]} ({n})")

                # The first search after the writes: SQLite's matrix of vectors is read again here
                # (backends/sqlite/search.py), which a one-shot `memory search` pays once.
                started = time.perf_counter()
                store_search()
                first_ms = round(1000 * (time.perf_counter() - started), 1)
                # Measured per size, between the searches, so all parts see the same machine state.
                embed_times = timed(embed_only, repeats)
                vector_times = timed(store_search, repeats)
                progress.advance(task, repeats)
                with _one_blas_thread():  # like the SQLite query: one core per search
                    numpy_times = timed(numpy_search, repeats)
                e2e_times = timed(end_to_end, repeats, warmup=1)
                agree = 0
                for q, vec in zip(queries, qv, strict=True):
                    got = [i.key for i in store.search(NAMESPACE, query=q, limit=3)]
                    scores = all_vectors @ vec
                    want = [ids[i] for i in np.argsort(-scores)[:3]]
                    agree += got == want
                extra = row_metrics(store, queries) if row_metrics else {}
                row = {"backend": backend, "records": size,
                       "embedding": summary_ms(embed_times), "vector_search": summary_ms(vector_times),
                       "numpy_exact": summary_ms(numpy_times), "end_to_end": summary_ms(e2e_times),
                       "first_search_ms": first_ms, "top3_agrees_with_numpy": f"{agree}/{len(queries)}", **extra}
                rows.append({**row, **floor_ratios(row)})
        build[backend] = {"records": len(ids), "insert_s": round(insert_s, 2),
                          "records_per_s": round(len(ids) / insert_s, 1) if insert_s else None,
                          "method": "BaseStore.batch(PutOp...) with precomputed vectors (the store's own put path)"}
    return {"rows": rows, "build": build, "base_texts": len(texts), "noise_sigma": NOISE_SIGMA,
            "queries": len(queries), "repeats": repeats}


def floor_ratios(row: dict[str, Any]) -> dict[str, float]:
    """The floor of a whole search (query embedding + numpy's exact search of the same vectors, p50s)
    and how far the whole search and the store's vector search are above theirs."""
    floor = row["embedding"]["p50_ms"] + row["numpy_exact"]["p50_ms"]
    return {"floor_p50_ms": round(floor, 2),
            "whole_to_floor": round(row["end_to_end"]["p50_ms"] / floor, 2) if floor else None,
            "vector_to_numpy": round(row["vector_search"]["p50_ms"] / row["numpy_exact"]["p50_ms"], 1)
            if row["numpy_exact"]["p50_ms"] else None}


# -- 2. durability and test share -------------------------------------------------------------------

def session_costs(scenario_name: str, repeats: int, *, progress, workdir: Path, embeddings_kind: str) -> dict:
    """The same scripted session with the SQLite checkpointer and with InMemorySaver, alternating."""


    scenario = load_scenario(scenario_name)
    embeddings = make_embeddings(embeddings_kind)

    def one(mode: str, index: int) -> dict:
        settings = Settings(home=workdir / f"session-{mode}-{index}", embeddings=embeddings_kind)
        settings.ensure_home()
        with open_sqlite_store(settings.memory_path, embeddings) as store, \
                (open_checkpointer(settings.checkpoint_path) if mode == "sqlite" else _nullcontext(InMemorySaver())) as saver:
            inside = _time_checkpointer(saver)
            agent = Agent(builder.compile(checkpointer=saver, store=store), FixMemory(store), settings)
            thread_id = f"perf-{mode}-{index}"
            task = scenario_task(scenario, settings, thread_id)
            started = time.perf_counter()
            final = start_session(agent, task, context=Context(model="scripted"))
            wall = time.perf_counter() - started
        tests_s = (sum(float(run.get("duration_s", 0.0)) for run in final.get("test_runs") or [])
                   + float((final.get("confirm") or {}).get("duration_s", 0.0)))  # the fresh copy's run
        return {"checkpointer": mode, "wall_s": round(wall, 3), "test_subprocess_s": round(tests_s, 3),
                "checkpointer_s": round(inside["s"], 4), "checkpointer_calls": inside["calls"],
                "test_share": round(tests_s / wall, 4) if wall else None, "status": final.get("status"),
                "test_runs": len(final.get("test_runs") or [])}

    task = progress.add_task(f"perf: sessions on {scenario_name} (sqlite vs in-memory)", total=1 + 2 * repeats)
    one("memory", -1)  # warm-up: model load and first imports are not a checkpointer's cost
    progress.advance(task)
    runs = []
    for index in range(repeats):
        for mode in (("sqlite", "memory") if index % 2 == 0 else ("memory", "sqlite")):
            runs.append(one(mode, index))
            progress.advance(task)
    summary = {}
    for mode in ("sqlite", "memory"):
        mine = [r for r in runs if r["checkpointer"] == mode]
        walls = [r["wall_s"] for r in mine]
        summary[mode] = {"wall": summary_ms(walls), "test_share_mean": round(sum(r["test_share"] for r in mine) / len(mine), 4),
                         "test_subprocess_mean_s": round(sum(r["test_subprocess_s"] for r in mine) / len(mine), 3),
                         "checkpointer_mean_ms": round(1000 * sum(r["checkpointer_s"] for r in mine) / len(mine), 1),
                         "checkpointer_calls": mine[0]["checkpointer_calls"]}
    durability = summary["sqlite"]["wall"]["p50_ms"] - summary["memory"]["wall"]["p50_ms"]
    inside = summary["sqlite"]["checkpointer_mean_ms"] - summary["memory"]["checkpointer_mean_ms"]
    return {"scenario": scenario_name, "repeats": repeats, "runs": runs, "summary": summary,
            "durability_cost_p50_ms": round(durability, 1), "durability_cost_inside_ms": round(inside, 1),
            "embeddings": embeddings_kind}


def _time_checkpointer(saver) -> dict:
    """Accumulate the time spent inside the saver's calls (a direct measure of what durability costs,
    which a wall-time difference of a few-second session cannot resolve on a busy machine)."""
    acc = {"s": 0.0, "calls": 0}
    for name in ("put", "put_writes", "get_tuple"):
        original = getattr(saver, name)

        def timed(*args, _original=original, **kwargs):
            started = time.perf_counter()
            try:
                return _original(*args, **kwargs)
            finally:
                acc["s"] += time.perf_counter() - started
                acc["calls"] += 1

        setattr(saver, name, timed)
    return acc


@contextmanager
def _nullcontext(value):
    yield value


@contextmanager
def _one_blas_thread():
    """Limit numpy's BLAS to one thread when threadpoolctl is installed (it comes with
    sentence-transformers' scikit-learn); otherwise measure as configured."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        yield
        return
    with threadpool_limits(limits=1):
        yield


# -- 3. cold start ------------------------------------------------------------------------------------

def cli_command() -> list[str]:
    """The installed console script next to this interpreter, else ``python -m astra_memory``."""
    script = Path(sys.executable).parent / "astra-memory"
    return [str(script)] if script.exists() else [sys.executable, "-m", "astra_memory"]


def cold_start(repeats: int, *, progress, workdir: Path, query: str, seed_records: list[dict],
               embeddings_kind: str, scenario: str = "alpha") -> dict:
    """Wall time of whole ``astra-memory`` processes: ``memory search`` against a memory holding
    ``seed_records``, ``--help``, the embedding floor, and one ``run SCENARIO`` session on an empty memory."""
    home = workdir / "cold-start-home"
    settings = Settings(home=home, embeddings=embeddings_kind)
    settings.ensure_home()
    with open_sqlite_store(settings.memory_path, make_embeddings(embeddings_kind)) as store:
        memory = FixMemory(store)
        for rec in seed_records:
            memory.store_fix_memory(**rec)
    # The measured process sees this memory and nothing secret; a server database URL would
    # measure another backend than the SQLite file this part is about.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("OPENAI_") and k not in ("ASTRA_DATABASE_URL", "ASTRA_MODEL", "ASTRA_MIN_SCORE")}
    env.update({"ASTRA_HOME": str(home), "ASTRA_EMBEDDINGS": embeddings_kind})
    # The floor: the same interpreter loading MiniLM and embedding one query, no CLI, no store. What
    # `memory search` takes beyond it is ours (imports, opening the memory, the search itself).
    floor = ("from astra_memory.stores.embeddings import make_embeddings; "
             f"make_embeddings({embeddings_kind!r}).embed_query({query!r})")
    commands = {"memory search": [*cli_command(), "memory", "search", query, "--json"],
                "--help": [*cli_command(), "--help"],
                "embedding floor": [sys.executable, "-c", floor],
                # A whole session as a user starts it: a new memory each time (otherwise the second
                # run would replay the first one's fix), the scripted model, its report on stdout.
                "run": [*cli_command(), "run", scenario, "--json"]}
    shown = {"memory search": f'astra-memory memory search "{query}" --json', "--help": "astra-memory --help",
             "embedding floor": "python -c 'load MiniLM, embed one query' (floor, not a command)",
             "run": f"astra-memory run {scenario} --json (empty memory)"}
    task = progress.add_task("perf: cold start (whole processes)", total=repeats * len(commands))
    results, test_seconds = {}, []
    for label, argv in commands.items():
        times, cpu, ok = [], [], True
        for index in range(repeats):
            run_env = {**env, "ASTRA_HOME": str(workdir / f"cold-run-{index}")} if label == "run" else env
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            proc = subprocess.run(argv, capture_output=True, text=True, env=run_env, timeout=600)
            times.append(time.perf_counter() - started)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)  # this child's CPU: steadier than wall on a shared machine
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            ok = ok and proc.returncode == 0
            if label == "run":
                summary = _json_or_empty(proc.stdout)
                ok = ok and summary.get("status") == "fixed"
                test_seconds.append(float(summary.get("test_seconds") or 0.0))
            progress.advance(task)
        results[label] = {"argv": shown[label].removeprefix("astra-memory "), "process": shown[label],
                          "wall": summary_ms(times), "cpu": summary_ms(cpu), "ok": ok}
    wall = {label: r["wall"]["p50_ms"] for label, r in results.items()}
    tests_ms = 1000 * statistics.median(test_seconds) if test_seconds else 0.0
    results["run"]["test_seconds"] = test_seconds
    # What a session cannot do without: its test runs (workspace and fresh copy) and one cold embedding.
    session_floor = tests_ms + wall["embedding floor"]
    ratios = {"memory_search_to_help": round(wall["memory search"] / wall["--help"], 2) if wall["--help"] else None,
              "memory_search_to_floor": round(wall["memory search"] / wall["embedding floor"], 2)
              if wall["embedding floor"] else None,
              "run_tests_p50_ms": round(tests_ms, 1), "run_floor_ms": round(session_floor, 1),
              "run_to_floor": round(wall["run"] / session_floor, 2) if session_floor else None}
    return {"repeats": repeats, "records_in_memory": len(seed_records), "scenario": scenario,
            "commands": results, "ratios": ratios}


def _json_or_empty(text: str) -> dict:
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


# -- 4. what judging a test run costs ----------------------------------------------------------------

def judging_costs(scenario_name: str, repeats: int, *, progress, workdir: Path) -> dict:
    """Median wall time of one run of the scenario's tests (fixed) in each way of judging it."""
    scenario = load_scenario(scenario_name)
    workspace = scenario.copy_to(workdir / f"test-runs-{scenario_name}")
    command, env = scenario.test_command, scenario.env
    observed = run_tests(workspace, command, env=env)  # the bug still there: observe's run
    baseline = Baseline("pytest", observed.tests, observed.results_complete)
    files = Workspace(workspace, protected=scenario.protected)
    for step in scenario.solution:
        if step["tool"] == "apply_edit":
            files.apply_edit(step["args"]["path"], step["args"]["old_text"], step["args"]["new_text"])
    guards = [GUARD_READ_ONLY] if read_only_supported() else []
    modes: dict[str, dict] = {"exit code only": {"evidence": "exit_code"}, "per-test results": {"baseline": baseline}}
    recorded = {}
    for guard in (*guards, GUARD_MANIFEST):
        environment = record_environment(workspace, command, step_environment(workspace, env),
                                         workdir / f"environment-{guard}", guard=guard)
        recorded[guard] = {"files": environment.files, "record_ms": environment.took_ms, "roots": environment.roots}
        modes[f"per-test results + {guard} environment"] = {"baseline": baseline, "environment": environment}
    private = f"per-test results + {GUARD_READ_ONLY} environment + private root"
    if guards and not degraded_reason():  # a session's way for every test step (nodes/common.py private_step)
        modes[private] = {**modes[f"per-test results + {GUARD_READ_ONLY} environment"],
                          **private_step({"workspace": str(workspace)})}
    task = progress.add_task(f"perf: test runs on {scenario_name} (exit code vs per-test results)",
                             total=repeats * len(modes))
    times: dict[str, list[float]] = {mode: [] for mode in modes}
    failed: dict[str, list[str]] = {mode: [] for mode in modes}  # why a run did not pass (none should fail)
    for index in range(repeats):
        for mode in (list(modes) if index % 2 == 0 else list(reversed(modes))):
            started = time.perf_counter()
            run = run_tests(workspace, command, env=env, **modes[mode])
            times[mode].append(time.perf_counter() - started)
            if not run.passed:
                failed[mode].append(run.outcome)
            progress.advance(task)
    floor = times["exit code only"]

    def extra(mode: str, than: list[float] = floor) -> float:
        """The median over rounds of (this mode - exit code only) in the same round: steadier on a
        busy machine than the difference of two medians."""
        return round(1000 * statistics.median(t - f for t, f in zip(times[mode], than, strict=True)), 1)

    rows = {mode: {**summary_ms(times[mode]), "extra_ms": extra(mode), "all_passed": not failed[mode],
                   "failures": failed[mode][:3]} for mode in modes}
    # what the private root adds to one test run: with it vs without it, the same round
    private_extra = extra(private, times[f"per-test results + {GUARD_READ_ONLY} environment"]) \
        if private in modes else None
    return {"scenario": scenario_name, "repeats": repeats, "modes": rows, "environment": recorded,
            "observe_outcome": observed.outcome, "private_root_extra_ms": private_extra,
            "private_root": degraded_reason() or "available"}


# -- the bench ----------------------------------------------------------------------------------------

def run_perf(*, sizes: list[int] | None = None, backends: list[str] | None = None, repeats: int = 20,
             session_repeats: int = 3, cold_repeats: int = 3, scenario: str = "alpha", progress=None,
             embeddings_kind: str = "minilm", cases: str | Path | None = None) -> dict[str, Any]:
    """All three parts in one run; returns the result as a dict."""
    sizes = list(sizes or DEFAULT_SIZES)
    backends = list(backends or ["sqlite"])
    for name in backends:
        resolve_backend(name)  # fail before spending minutes on the others
    progress = progress or make_progress(False)
    model = make_embeddings(embeddings_kind)
    queries, seed_records = real_queries(cases)
    workdir = Path(tempfile.mkdtemp(prefix="astra-bench-perf-"))
    try:
        with progress:
            with stopwatch() as load:
                model.embed_query("warm-up")
            latency = search_latency(sizes, backends, repeats=repeats, model=model, queries=queries,
                                     progress=progress, workdir=workdir)
            sessions = session_costs(scenario, session_repeats, progress=progress, workdir=workdir,
                                     embeddings_kind=embeddings_kind)
            # A short symptom-style query: the process's cost, not the query's length, is measured.
            cold = cold_start(cold_repeats, progress=progress, workdir=workdir, query=COLD_START_QUERY,
                              seed_records=seed_records, embeddings_kind=embeddings_kind, scenario=scenario)
            test_runs = judging_costs(scenario, max(3, session_repeats * 2), progress=progress, workdir=workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    # A warm session against what it cannot do without: its test runs and one query embedding.
    embedding_ms = latency["rows"][0]["embedding"]["p50_ms"] if latency["rows"] else 0.0
    durable = sessions["summary"]["sqlite"]
    floor_ms = 1000 * durable["test_subprocess_mean_s"] + embedding_ms
    sessions["floor_ms"] = round(floor_ms, 1)
    sessions["wall_to_floor"] = round(durable["wall"]["p50_ms"] / floor_ms, 2) if floor_ms else None
    return {"bench": "perf", "sizes": sizes, "backends": backends, "embeddings": embeddings_kind,
            "model_load_s": round(load[0], 3), "latency": latency, "sessions": sessions, "cold_start": cold,
            "test_runs": test_runs, "machine": machine_info()}

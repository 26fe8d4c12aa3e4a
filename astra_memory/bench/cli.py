"""`astra-memory bench ...`: run a bench, print a table, write JSON + Markdown + PNGs to a results folder.

Registered on the main CLI as ``app.add_typer(bench_app, name="bench")``. Each command is a thin
layer over ``run_<bench>`` (measure) and ``report.write_<bench>`` (write), which scripts can call.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from astra_memory.bench.extra import require_bench_extra
from astra_memory.context import Context
from astra_memory.errors import AstraError

bench_app = typer.Typer(help="Benchmarks: retrieval quality, the multi-session experiment, performance.",
                        no_args_is_help=True)
console = Console()
err = Console(stderr=True, soft_wrap=True)
OutOpt = Annotated[Optional[Path], typer.Option("--out", help="Results folder (default ./results/<bench>/).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the whole result as one JSON object.")]


def _command(bench: str, **params: Any) -> str:
    """The command line that produced a report: the real one when run as ``astra-memory bench``,
    else (called in-process, e.g. by tests) rebuilt from the parameters."""
    argv = sys.argv[1:]
    if "bench" in argv and bench in argv:
        return shlex.join(["astra-memory", *argv[argv.index("bench"):]])
    parts = ["astra-memory", "bench", bench]
    for name, value in params.items():
        option = "--" + name.replace("_", "-")
        if value is True:
            parts.append(option)
        elif value not in (None, False):
            parts += [option, str(value)]
    return shlex.join(parts)


def _fail(message: str, code: int = 2) -> None:
    err.print("[red]error:[/red] ", end="")
    err.print(message, markup=False, highlight=False)  # messages hold [brackets] (the extra's name): not markup
    raise typer.Exit(code)


def _emit(result: dict, written: dict, as_json: bool, table: Table | list[Table]) -> None:
    if as_json:
        sys.stdout.write(json.dumps({**result, "written": written}, indent=2, default=str) + "\n")
        return
    for t in table if isinstance(table, list) else [table]:
        console.print(t)
    console.print(f"report: {written['markdown']}  json: {written['json']}  plots: {', '.join(written['png'])}")


@bench_app.command()
def retrieval(
    cases: Annotated[Optional[Path], typer.Option("--cases", help="JSON-lines cases (default: the shipped corpus file).")] = None,
    out: OutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Recall@1/@3 and MRR: the product against the fix-only baseline and BM25; score calibration."""
    from astra_memory.bench.cases import SHIPPED_CASES
    from astra_memory.bench.common import make_progress, results_dir
    from astra_memory.bench.report import SHORT, cohort_cell, cohort_label, write_retrieval
    from astra_memory.bench.retrieval import run_retrieval

    try:
        require_bench_extra()
        # Our progress bar, on a terminal only (quiet in --json and in logs).
        result = run_retrieval(cases or SHIPPED_CASES, progress=make_progress(not as_json and err.is_terminal))
    except AstraError as exc:
        _fail(str(exc))
    written = write_retrieval(result, results_dir("retrieval", out),
                              _command("retrieval", cases=cases, out=out, json=as_json))
    table = Table("system", "recall@1", "recall@3", "MRR@10",
                  title=f"Retrieval: {result['queries']} queries, {result['records']} records, MiniLM")
    for name, m in result["systems"].items():
        table.add_row(SHORT[name], f"{m['recall@1']:.3f}", f"{m['recall@3']:.3f}", f"{m['mrr']:.3f}")
    cohorts = Table("system", *(cohort_label(c, by) for c, by in result["per_cohort"].items()),
                    title="Per cohort: recall@1 / recall@3 / MRR")
    for name in result["systems"]:
        cohorts.add_row(SHORT[name], *(cohort_cell(by[name]) for by in result["per_cohort"].values()))
    cal = result["calibration"]
    scores = Table("pairs", "n", "min", "p5", "median", "p95", "max",
                   title=f"MiniLM scores (DEFAULT_MIN_SCORE {cal['default_min_score']:g}, "
                         f"suggested {cal['suggested'].get('threshold')}; hides "
                         f"{result['threshold']['hidden_by_default_min_score']} relevant top-3 hits)")
    for key in ("related", "unrelated"):
        d = cal[key]
        if d.get("n"):
            scores.add_row(key, str(d["n"]), *(f"{d[k]:.3f}" for k in ("min", "p05", "p50", "p95", "max")))
    _emit(result, written, as_json, [table, *([cohorts] if result["per_cohort"] else []), scores])


@bench_app.command()
def sessions(
    sessions: Annotated[int, typer.Option("--sessions", min=1, max=50, help="Sessions on the scenario.")] = 5,
    scenario: Annotated[str, typer.Option(help="Scenario of the repeated-session experiment.")] = "beta",
    family: Annotated[Optional[str], typer.Option(help="Family of the sequence run (default: the scenario's).")] = None,
    model: Annotated[Optional[str], typer.Option(help="'scripted' (default) or 'openai:<model>'.")] = None,
    out: OutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The five-session experiment on beta, and one bug family in sequence with memory growing."""
    from astra_memory.bench.common import make_progress, results_dir
    from astra_memory.bench.report import write_sessions
    from astra_memory.bench.sessions import run_sessions

    folder = results_dir("sessions", out)
    try:
        require_bench_extra("matplotlib")
        result = run_sessions(sessions=sessions, scenario=scenario, family=family, model=model or Context().model or "scripted",
                              data_dir=folder / "data", progress=make_progress(not as_json and err.is_terminal))
    except AstraError as exc:
        _fail(str(exc))
    written = write_sessions(result, folder, _command("sessions", sessions=sessions, scenario=scenario, family=family,
                                                         model=model, out=out, json=as_json))
    five = Table("#", "in mem", "found", "rank", "score", "req", "tools", "wall s", "status", "orig. tests",
                 title=f"{sessions} sessions of {scenario} (model {result['model']})")
    for r in result["five_sessions"]["sessions"]:
        five.add_row(str(r["session"]), str(r["records_in_memory"]), "yes" if r["retrieved_before_first_edit"] else "no",
                     str(r["session1_rank"] or "-"), f"{r['session1_score']:.4f}" if r["session1_score"] is not None else "-",
                     str(r["model_requests"]), str(r["tool_calls"]), f"{r['wall_time_s']:.2f}", r["status"] or "",
                     "passed" if r["original_tests_passed"] else "FAILED")
    fam = Table("scenario", "in mem", "hits from", "best", "req", "tools", "wall s", "status", "orig. tests",
                title=f"Family {result['family_run']['family']} in sequence")
    for r in result["family_run"]["sessions"]:
        fam.add_row(r["scenario"], str(r["records_in_memory"]), ", ".join(r["hits_from"]) or "none",
                    f"{r['best_score']:.4f}" if r["best_score"] is not None else "-", str(r["model_requests"]),
                    str(r["tool_calls"]), f"{r['wall_time_s']:.2f}", r["status"] or "",
                    "passed" if r["original_tests_passed"] else "FAILED")
    _emit(result, written, as_json, [five, fam])
    every = result["five_sessions"]["sessions"] + result["family_run"]["sessions"]
    raise typer.Exit(0 if all(r["status"] == "fixed" and r["original_tests_passed"] for r in every) else 1)


def _sizes(raw: str) -> list[int]:
    try:
        sizes = [int(x.replace("_", "").replace("k", "000")) for x in raw.split(",") if x.strip()]
    except ValueError:
        raise typer.BadParameter(f"--sizes must be comma-separated record counts, e.g. 1000,10000 (got {raw!r})")
    if not sizes or any(s < 10 for s in sizes):
        raise typer.BadParameter("every size must be at least 10 records")
    return sizes


@bench_app.command()
def perf(
    sizes: Annotated[str, typer.Option(help="Memory sizes, comma-separated (1k = 1000).")] = "1000,10000,100000",
    backends: Annotated[str, typer.Option(help="Memory backends to compare, comma-separated: sqlite, postgres "
                                               "(in ASTRA_DATABASE_URL's database, else a local throwaway server).")
                        ] = "sqlite",
    repeats: Annotated[int, typer.Option(min=3, help="Timed searches per size.")] = 20,
    session_repeats: Annotated[int, typer.Option(min=1, help="Sessions per checkpointer.")] = 3,
    cold_repeats: Annotated[int, typer.Option(min=1, help="Cold-start processes per command.")] = 3,
    scenario: Annotated[str, typer.Option(help="Scenario of the session timing.")] = "alpha",
    out: OutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Search latency vs. size (SQLite vs. numpy floor; PostgreSQL HNSW with its recall against exact
    search), checkpointer cost, test share, cold start."""
    from astra_memory.bench.common import make_progress, results_dir
    from astra_memory.bench.perf import run_perf
    from astra_memory.bench.report import hnsw_recall, write_perf
    from astra_memory.settings import Settings

    try:
        require_bench_extra("matplotlib")
        result = run_perf(sizes=_sizes(sizes), backends=[b.strip() for b in backends.split(",") if b.strip()],
                          repeats=repeats, session_repeats=session_repeats, cold_repeats=cold_repeats,
                          scenario=scenario, progress=make_progress(not as_json and err.is_terminal),
                          embeddings_kind=Settings().embeddings)
    except AstraError as exc:
        _fail(str(exc))
    written = write_perf(result, results_dir("perf", out),
                         _command("perf", sizes=sizes, backends=backends, repeats=repeats,
                                  session_repeats=session_repeats, cold_repeats=cold_repeats, scenario=scenario,
                                  out=out, json=as_json))
    lat = Table("backend", "records", "embed p50/p95 ms", "vector search p50/p95 ms", "numpy p50/p95 ms",
                "whole search p50/p95 ms", "top-3 = numpy", "HNSW recall@3 vs exact", title="Memory search latency")
    for r in result["latency"]["rows"]:
        lat.add_row(r["backend"], f"{r['records']:,}", _pp(r["embedding"]), _pp(r["vector_search"]),
                    _pp(r["numpy_exact"], 2), _pp(r["end_to_end"]), r["top3_agrees_with_numpy"], hnsw_recall(r))
    s = result["sessions"]["summary"]
    ses = Table("checkpointer", "session p50 ms", "min/max ms", "inside checkpointer", "in test subprocess",
                title=f"Session on {result['sessions']['scenario']}: durability costs "
                      f"{result['sessions']['durability_cost_inside_ms']:.1f} ms")
    for mode in ("sqlite", "memory"):
        ses.add_row(mode, f"{s[mode]['wall']['p50_ms']:.0f}", f"{s[mode]['wall']['min_ms']:.0f}/{s[mode]['wall']['max_ms']:.0f}",
                    f"{s[mode]['checkpointer_mean_ms']:.1f} ms", f"{s[mode]['test_share_mean']:.0%}")
    cold = Table("process", "wall p50 s", "min/max s", "CPU p50 s", "ok", title="Cold start")
    for c in result["cold_start"]["commands"].values():
        cold.add_row(c.get("process") or f"astra-memory {c['argv']}", f"{c['wall']['p50_ms'] / 1000:.2f}",
                     f"{c['wall']['min_ms'] / 1000:.2f}/{c['wall']['max_ms'] / 1000:.2f}",
                     f"{c['cpu']['p50_ms'] / 1000:.2f}", "yes" if c["ok"] else "NO")
    _emit(result, written, as_json, [lat, ses, cold])


def _pp(stats: dict[str, Any], digits: int = 1) -> str:
    return f"{stats['p50_ms']:.{digits}f} / {stats['p95_ms']:.{digits}f}"

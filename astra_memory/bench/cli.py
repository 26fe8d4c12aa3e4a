"""`astra-memory bench ...`: run a bench, print a table, write JSON + Markdown + PNGs to a results folder.

Registered on the main CLI as ``app.add_typer(bench_app, name="bench")``. Each command is a thin
layer over ``run_<bench>`` (measure) and ``report.write_<bench>`` (write), which scripts can call.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.table import Table

from astra_memory.bench.extra import require_bench_extra
from astra_memory.cli.common import fail, print_json, print_table
from astra_memory.cli.terminal import SafeConsole
from astra_memory.context import Context
from astra_memory.errors import AstraError

bench_app = typer.Typer(help="Benchmarks: retrieval quality, the multi-session experiment, performance.",
                        no_args_is_help=True)
console = SafeConsole()  # untrusted text is never printed raw (cli/terminal.py)
err = SafeConsole(stderr=True, soft_wrap=True)
OutOpt = Annotated[Optional[Path], typer.Option("--out", help="Results folder (default ./results/<bench>/).")]
JsonOpt = Annotated[bool, typer.Option("--json", metavar="", help="Print the whole result as one JSON object.")]
EvalsOpt = Annotated[Optional[Path], typer.Option(
    "--evals", metavar="DIR", help="A source checkout's evals/ folder, whose blind sets join the development sets "
                                   "(default: the checkout this package runs from; an installed package has none).")]

# The evaluation sets that live in a source checkout's evals/ folder, not in the package
# (evals/blind/README.md, evals/blind2/README.md, evals/blind3/README.md, evals/blind4/README.md,
# evals/diagnoses/README.md). blind and blind-2 are reported, never used to choose anything; blind-3
# (real test output of PyPI libraries) was run twice as a blind set and has been a development set
# since (docs/results.md); blind-4 took its place. blind-3 and blind-4 have their own diagnoses files.
BLIND_SETS = {"blind": Path("blind/cases.jsonl"), "blind-2": Path("blind2/cases.jsonl"),
              "blind-3": Path("blind3/cases.jsonl"), "blind-4": Path("blind4/cases.jsonl")}
DIAGNOSES_FILE = Path("diagnoses/diagnoses.jsonl")
PROJECT_LINE = 'name = "astra-codebase-memory"'
NO_CHECKOUT = ("note: this installed package has the development sets only (astra_memory/bench/cases/: dev, "
               "dev-extra); the blind sets and diagnoses are in a source checkout: add them with --evals DIR "
               "(the checkout's evals/ folder), or run other case files with --cases FILE")


def checkout_evals(root: Path | None = None) -> Path | None:
    """The evals/ folder of the source checkout the package runs from (the repository itself, or an
    editable install of it), else None. ``root``: the folder holding the package (default: this
    package's). It is a checkout when our pyproject.toml is there too: in an installed package
    that folder is site-packages, where an evals/ folder would be some other distribution's."""
    root = root if root is not None else Path(__file__).resolve().parent.parent.parent
    try:
        ours = PROJECT_LINE in (root / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return root / "evals" if ours and (root / "evals").is_dir() else None


def _evals_folder(evals: Path | None) -> Path | None:
    """``--evals`` if given (it must hold a blind set), else the checkout's evals/ folder, if any."""
    if evals is None:
        return checkout_evals()
    if not any((evals / path).is_file() for path in BLIND_SETS.values()):
        fail(f"--evals {evals}: no {' or '.join(map(str, BLIND_SETS.values()))} there; give a source "
             "checkout's evals/ folder")
    return evals


def _case_sets(cases: list[Path] | None, folder: Path | None) -> dict[str, Path]:
    """The case files a bench runs side by side: ``--cases``, else the development sets (package
    data) and the blind sets of the evals folder (saying so when there is none)."""
    from astra_memory.bench.query_cases import DEV_EXTRA_CASES, SHIPPED_CASES

    if cases:
        return _set_names(cases)
    sets = {"dev": SHIPPED_CASES, "dev-extra": DEV_EXTRA_CASES}
    if folder is None:
        err.print(NO_CHECKOUT, markup=False, highlight=False)
        return sets
    return sets | {name: folder / path for name, path in BLIND_SETS.items() if (folder / path).is_file()}


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


def _emit(result: dict, written: dict, as_json: bool, table: Table | list[Table]) -> None:
    if as_json:
        print_json({**result, "written": written})
        return
    for t in table if isinstance(table, list) else [table]:
        print_table(t, target=console)
    console.print(f"report: {written['markdown']}  json: {written['json']}  plots: {', '.join(written['png'])}")


@bench_app.command()
def retrieval(
    cases: Annotated[Optional[list[Path]], typer.Option(
        "--cases", help="JSON-lines cases; repeat for several sets (default: the development sets and the blind "
                        "sets of --evals, blind*/cases.jsonl, side by side).")] = None,
    diagnoses: Annotated[Optional[Path], typer.Option(
        help="JSON lines {id, diagnosis}: a second search per query with a model's diagnosis "
             "(default: diagnoses/diagnoses.jsonl of --evals).")] = None,
    evals: EvalsOpt = None,
    out: OutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Recall@1/@3, MRR and delivered precision: the product against the fix-only baseline and BM25,
    on each case set side by side; score calibration."""
    from astra_memory.bench.common import make_progress, results_dir
    from astra_memory.bench.query_cases import load_diagnoses
    from astra_memory.bench.report import SHORT, write_retrieval_sets
    from astra_memory.bench.retrieval import run_retrieval_sets

    folder = _evals_folder(evals)
    sets = _case_sets(cases, folder)
    try:
        require_bench_extra()
        if diagnoses is not None and not diagnoses.is_file():
            raise AstraError(f"{diagnoses} is not a file")
        found = diagnoses or (folder / DIAGNOSES_FILE if folder is not None else None)
        # Our progress bar, on a terminal only (quiet in --json and in logs).
        result = run_retrieval_sets(sets, progress_factory=lambda: make_progress(not as_json and err.is_terminal),
                                    diagnoses=load_diagnoses(found) if found is not None else {})
    except AstraError as exc:
        fail(str(exc))
    written = write_retrieval_sets(result, results_dir("retrieval", out),
                                   _command("retrieval", cases=" ".join(map(str, cases or [])) or None,
                                            diagnoses=diagnoses, evals=evals, out=out, json=as_json))
    names = list(result["sets"])
    table = Table("system", *(f"{n} ({result['sets'][n]['queries']} q)" for n in names),
                  title="Retrieval, MiniLM: recall@1 / recall@3 / MRR@10")
    shown = Table("system", *names, title=(f"Delivered at min score {result['default_min_score']:g}, top "
                                           f"{result['session_top_k']}: precision / nothing relevant shown"))
    for system in result["systems"]:
        by = [result["sets"][n]["systems"][system] for n in names]
        table.add_row(SHORT[system], *(f"{m['recall@1']:.3f} / {m['recall@3']:.3f} / {m['mrr']:.3f}" for m in by))
        shown.add_row(SHORT[system], *(f"{m['delivered']['precision']:.3f} / "
                                       f"{m['delivered']['nothing_relevant_shown']:.3f}" for m in by))
    _emit(result, written, as_json, [table, shown])


def _set_names(paths: list[Path]) -> dict[str, Path]:
    """Column names for case files: the folder for ``.../blind/cases.jsonl``, else the file's stem."""
    sets: dict[str, Path] = {}
    for path in paths:
        name = path.parent.name if path.stem == "cases" and path.parent.name else path.stem
        while name in sets:
            name += "'"
        sets[name] = path
    return sets


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
        fail(str(exc))
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


@bench_app.command()
def recurring(
    family: Annotated[Optional[list[str]], typer.Option("--family", help="Only these families (repeatable).")] = None,
    model: Annotated[Optional[str], typer.Option(help="'scripted' (default) or 'openai:<model>'.")] = None,
    embeddings: Annotated[str, typer.Option(help="'minilm' (default) or 'hash' (fast, for tests).")] = "minilm",
    out: OutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A bug that comes back: first fix, same bug in a changed copy, related bug; memory off / on / on + replay."""
    from astra_memory.bench.common import make_progress, results_dir
    from astra_memory.bench.recurring import run_recurring, write_recurring

    folder = results_dir("recurring", out)
    try:
        require_bench_extra()
        with make_progress(not as_json and err.is_terminal) as progress:
            result = run_recurring(folder / "data", model=model or Context().model or "scripted", embeddings=embeddings,
                                   families=family, progress=progress)
    except AstraError as exc:
        fail(str(exc))
    written = write_recurring(result, folder, _command("recurring", model=model, embeddings=embeddings, out=out,
                                                        json=as_json))
    table = Table("mode", "session", "n", "fixed", "replayed", "model req", "tool calls", "test runs", "wall s",
                  title=f"Recurring bugs, {len(result['families'])} families (model {result['model']}); "
                        "origin story: 7 requests / 9 tool calls per session")
    for mode, positions in result["totals"].items():
        for cell in positions.values():
            table.add_row(mode, cell["label"], str(cell["sessions"]), str(cell["fixed"]), str(cell["replayed"]),
                          str(cell["model_requests"]), str(cell["tool_calls"]), str(cell["test_runs"]),
                          f"{cell['wall_time_s']:.1f}")
    _emit(result, written, as_json, table)


@bench_app.command()
def attempts(
    scenario: Annotated[Optional[list[str]], typer.Option("--scenario", help="Only these scenarios (repeatable).")] = None,
    embeddings: Annotated[str, typer.Option(help="'minilm' (default) or 'hash' (fast, for tests).")] = "minilm",
    out: OutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Failed attempts remembered: a wrong first try, then the same bug again; attempts off / on."""
    from astra_memory.bench.attempts import run_attempts, write_attempts
    from astra_memory.bench.common import make_progress, results_dir

    folder = results_dir("attempts", out)
    try:
        with make_progress(not as_json and err.is_terminal) as progress:
            result = run_attempts(folder / "data", embeddings=embeddings, names=scenario, progress=progress)
    except AstraError as exc:
        fail(str(exc))
    written = write_attempts(result, folder, _command("attempts", scenario=" ".join(scenario or []) or None,
                                                      embeddings=embeddings, out=out, json=as_json))
    table = Table("attempts", "recorded", "recall", "shown", "others", "precision", "refused", "fixed",
                  "requests", "test runs", title=f"Failed attempts, {len(result['scenarios'])} scenarios "
                                                  "(session 2 = the same bug again)")
    for mode, data in result["modes"].items():
        t = data["totals"]
        table.add_row(mode.removeprefix("attempts_"), f"{t['first_recorded']}/{t['scenarios']}", str(t["recall_same_bug"]), str(t["shown"]),
                      str(t["shown_from_other_bugs"]), str(t["precision_shown"]), str(t["repeats_refused"]),
                      f"{t['second_fixed']}/{t['scenarios']}", str(t["model_requests_second"]),
                      str(t["test_runs_second"]))
    _emit(result, written, as_json, table)


@bench_app.command()
def evidence(
    cases: Annotated[Optional[list[Path]], typer.Option(
        "--cases", help="Case files (repeatable; default: dev, dev-extra and the blind sets of --evals).")] = None,
    seeds: Annotated[int, typer.Option(min=1, max=20, help="Seeds per history.")] = 3,
    evals: EvalsOpt = None,
    out: OutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Outcome-aware ranking with and without: evidence off / this project's records / every record."""
    from astra_memory.bench.common import make_progress, results_dir
    from astra_memory.bench.evidence import (
        HEADER,
        evidence_rows,
        run_evidence,
        write_evidence,
    )

    sets = _case_sets(cases, _evals_folder(evals))
    try:
        result = run_evidence(sets, seeds=tuple(range(seeds)), progress=make_progress(not as_json and err.is_terminal))
    except AstraError as exc:
        fail(str(exc))
    written = write_evidence(result, results_dir("evidence", out),
                             _command("evidence", cases=" ".join(map(str, cases or [])) or None, seeds=seeds,
                                      evals=evals))
    table = Table(*HEADER, title=f"Outcome-aware ranking, {seeds} seed(s) per history")
    for row in evidence_rows(result):
        table.add_row(*row)
    _emit(result, written, as_json, table)


@bench_app.command()
def history(
    max_commits: Annotated[Optional[int], typer.Option(
        "--max-commits", min=1, help="Only the latest N commits of each history (default: all).")] = None,
    blind: Annotated[bool, typer.Option(
        "--blind", help="Measure the projects kept apart (run once, at the end), the development projects' fixes "
                        "in memory; those never searched before are reported together too ('unseen').")] = False,
    bundle: Annotated[Optional[list[Path]], typer.Option(
        "--bundle", help="Git bundles to measure instead (repeatable; named by their file name).")] = None,
    python: Annotated[Optional[str], typer.Option(
        "--python", help="The interpreter the projects' tests run with (default: this one).")] = None,
    embeddings: Annotated[str, typer.Option(help="'minilm' (default) or 'hash' (fast, for tests).")] = "minilm",
    out: OutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Memory search on real git histories, in time order: each confirmed fix searched for before it is learned."""
    from astra_memory.bench.common import make_progress, results_dir
    from astra_memory.bench.history import (
        BLIND_GROUPS,
        BLIND_PROJECTS,
        DEV_PROJECTS,
        HEADER,
        cost_line,
        run_history,
        table_rows,
        write_history,
    )

    groups = None
    if bundle:
        projects, others = {b.name.removesuffix(".bundle"): b for b in bundle}, None
    elif blind:
        if not BLIND_PROJECTS:
            fail("no project is kept apart yet (astra_memory/bench/history.py BLIND_PROJECTS)")
        projects, others, groups = BLIND_PROJECTS, DEV_PROJECTS, BLIND_GROUPS
    else:
        projects, others = DEV_PROJECTS, None
    folder = results_dir("history", out)
    try:
        with make_progress(not as_json and err.is_terminal) as progress:
            result = run_history(projects, folder, others=others, groups=groups, max_commits=max_commits,
                                 embeddings=embeddings, python=python, progress=progress)
    except AstraError as exc:
        fail(str(exc))
    written = write_history(result, folder, _command("history", max_commits=max_commits, blind=blind,
                                                     bundle=" ".join(map(str, bundle or [])) or None,
                                                     embeddings=embeddings, out=out))
    table = Table(*HEADER, title="Memory search on real histories, in time order", caption=cost_line(result))
    for row in table_rows(result):
        table.add_row(*row)
    _emit(result, written, as_json, table)


def _sizes(raw: str) -> list[int]:
    try:
        sizes = [int(x.replace("_", "").replace("k", "000")) for x in raw.split(",") if x.strip()]
    except ValueError:
        raise typer.BadParameter(
            f"--sizes must be comma-separated record counts, e.g. 1000,10000 (got {raw!r})") from None
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
    from astra_memory.bench.report import (
        cold_ratios,
        hnsw_recall,
        ratio_cells,
        write_perf,
    )
    from astra_memory.settings import Settings

    try:
        require_bench_extra("matplotlib")
        result = run_perf(sizes=_sizes(sizes), backends=[b.strip() for b in backends.split(",") if b.strip()],
                          repeats=repeats, session_repeats=session_repeats, cold_repeats=cold_repeats,
                          scenario=scenario, progress=make_progress(not as_json and err.is_terminal),
                          embeddings_kind=Settings().embeddings)
    except AstraError as exc:
        fail(str(exc))
    written = write_perf(result, results_dir("perf", out),
                         _command("perf", sizes=sizes, backends=backends, repeats=repeats,
                                  session_repeats=session_repeats, cold_repeats=cold_repeats, scenario=scenario,
                                  out=out, json=as_json))
    # Two narrow tables, not one of twelve columns: an 80-column terminal cut every cell (perf.md has them all).
    lat = Table("backend", "records", "whole p50/p95 ms", "floor ms", "whole/ floor", "top-3 exact",
                title="Memory search (embedding included)")
    vec = Table("backend", "records", "vector p50/p95 ms", "numpy p50 ms", "first after writes ms", "HNSW recall@3",
                title="Vector search alone")
    for r in result["latency"]["rows"]:
        floor, whole_over_floor, _vector_over_numpy, first = ratio_cells(r)
        lat.add_row(r["backend"], f"{r['records']:,}", _pp(r["end_to_end"]), floor, whole_over_floor,
                    r["top3_agrees_with_numpy"])
        vec.add_row(r["backend"], f"{r['records']:,}", _pp(r["vector_search"]), f"{r['numpy_exact']['p50_ms']:.2f}",
                    first or "-", hnsw_recall(r))
    sessions = result["sessions"]
    s = sessions["summary"]
    ses = Table("checkpointer", "session p50 ms", "min/max ms", "inside checkpointer", "in test subprocess",
                title=f"Session on {sessions['scenario']}: durability costs "
                      f"{sessions['durability_cost_inside_ms']:.1f} ms",
                caption=(f"Durable session / (its test runs + one embedding): {sessions['wall_to_floor']:.2f}x"
                         if sessions.get("wall_to_floor") else None))
    for mode in ("sqlite", "memory"):
        ses.add_row(mode, f"{s[mode]['wall']['p50_ms']:.0f}", f"{s[mode]['wall']['min_ms']:.0f}/{s[mode]['wall']['max_ms']:.0f}",
                    f"{s[mode]['checkpointer_mean_ms']:.1f} ms", f"{s[mode]['test_share_mean']:.0%}")
    cold = Table("process", "wall p50 s", "min/max s", "CPU p50 s", "ok", title="Cold start",
                 caption=cold_ratios(result["cold_start"]).replace("**", "").replace("`", ""))
    for c in result["cold_start"]["commands"].values():
        cold.add_row(c.get("process") or f"astra-memory {c['argv']}", f"{c['wall']['p50_ms'] / 1000:.2f}",
                     f"{c['wall']['min_ms'] / 1000:.2f}/{c['wall']['max_ms'] / 1000:.2f}",
                     f"{c['cpu']['p50_ms'] / 1000:.2f}", "yes" if c["ok"] else "NO")
    runs = result.get("test_runs") or {}
    private = runs.get("private_root_extra_ms")
    judged = Table("mode", "p50 ms", "extra ms", title=f"One test run on {runs.get('scenario')}",
                   caption=(f"The private root adds {private:.1f} ms per test run" if private is not None
                            else f"Private root not measured: {runs.get('private_root')}"))
    for mode, m in (runs.get("modes") or {}).items():
        judged.add_row(mode, f"{m['p50_ms']:.0f}", f"{m['extra_ms']:.1f}")
    _emit(result, written, as_json, [lat, vec, ses, judged, cold])


def _pp(stats: dict[str, Any], digits: int = 1) -> str:
    return f"{stats['p50_ms']:.{digits}f} / {stats['p95_ms']:.{digits}f}"

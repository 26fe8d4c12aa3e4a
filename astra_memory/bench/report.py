"""Write each bench's result as JSON, a Markdown report and PNG plots (matplotlib, headless).

The Markdown is meant to be read on its own (and pasted into docs/results.md): every figure comes
with the command that produced it, the machine it ran on and what exactly was measured.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from astra_memory.bench.common import write_json

COLORS = {"product": "#2a7ab0", "product_vector_only": "#8fbcdb", "baseline_fix_only": "#c9822b", "bm25": "#7a9a3a",
          "related": "#2a7ab0", "unrelated": "#b0b0b0", "sqlite": "#2a7ab0", "numpy": "#7a9a3a",
          "embedding": "#c9822b", "end_to_end": "#8a4fa0", "memory": "#7a9a3a", "tests": "#d9b44a"}
SHORT = {"product": "(a) product", "product_vector_only": "(a′) vector only", "baseline_fix_only": "(b) fix-only baseline", "bm25": "(c) BM25"}


def _plt():
    import matplotlib

    matplotlib.use("Agg")  # no display, no GUI toolkit
    import matplotlib.pyplot as plt

    plt.rcParams.update({"figure.dpi": 110, "font.size": 10, "axes.spines.top": False,
                         "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.25})
    return plt


def md_table(header: list[str], rows: list[list[Any]]) -> str:
    def cell(v: Any) -> str:
        return str(v).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def _machine_line(machine: dict) -> str:
    load = machine.get("load_average_1_5_15")
    return (f"Measured {machine.get('measured_at')} on {machine.get('cpus')} CPUs, Python {machine.get('python')}, "
            f"{machine.get('platform')}" + (f"; load average at the end {load}" if load else "") + ".")


def _finish(out: Path, name: str, result: dict, markdown: str) -> dict[str, str]:
    json_path = write_json(out / f"{name}.json", result)
    md_path = out / f"{name}.md"
    md_path.write_text(markdown, encoding="utf-8")
    return {"json": str(json_path), "markdown": str(md_path)}


# -- retrieval ----------------------------------------------------------------------------------------

def retrieval_tables(result: dict) -> dict[str, str]:
    systems = result["systems"]
    metrics = md_table(["system", "recall@1", "recall@3", "MRR@10", "all relevant in top 3",
                        "delivered precision", "nothing relevant shown"],
                       [[result["labels"][n], f"{m['recall@1']:.3f}", f"{m['recall@3']:.3f}", f"{m['mrr']:.3f}",
                         f"{m['all_relevant_in_top3']:.3f}", f"{m['delivered']['precision']:.3f}",
                         f"{m['delivered']['nothing_relevant_shown']:.3f}"] for n, m in systems.items()])
    cal = result["calibration"]
    dist_rows = []
    for key, label in (("related", "related (query, relevant record)"), ("unrelated", "unrelated (other family)")):
        d = cal[key]
        if d.get("n"):
            dist_rows.append([label, d["n"], d["min"], d["p05"], d["p25"], d["p50"], d["p75"], d["p95"], d["max"]])
    dist = md_table(["pairs", "n", "min", "p5", "p25", "median", "p75", "p95", "max"], dist_rows)
    fam = md_table(["family", *[SHORT[s] for s in systems]],
                   [[f, *[f"{v[s]:.3f}" for s in systems]] for f, v in result["per_family_mrr"].items()])
    cohorts = md_table(["queries", *[SHORT[s] for s in systems]],
                       [[f"{cohort_label(cohort, by)}: recall@1 / recall@3 / MRR",
                         *[cohort_cell(by[s]) for s in systems]] for cohort, by in result.get("per_cohort", {}).items()])
    return {"metrics": metrics, "distributions": dist, "families": fam, "cohorts": cohorts}


def cohort_label(cohort: str, by_system: dict) -> str:
    """"held-out (8)": the cohort and its number of queries (the same for every system)."""
    return f"{cohort} ({by_system['product']['queries']})"


def cohort_cell(m: dict) -> str:
    return f"{m['recall@1']:.3f} / {m['recall@3']:.3f} / {m['mrr']:.3f}"


def retrieval_plots(result: dict, out: Path) -> list[str]:
    plt = _plt()
    paths = []
    names = list(result["systems"])
    metric_keys = [("recall@1", "recall@1"), ("recall@3", "recall@3"), ("mrr", "MRR@10")]
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        values = [result["systems"][name][k] for k, _ in metric_keys]
        xs = [j + (i - (len(names) - 1) / 2) * width for j in range(len(metric_keys))]
        bars = ax.bar(xs, values, width, label=SHORT[name], color=COLORS[name])
        for bar, value in zip(bars, values, strict=True):
            ax.text(bar.get_x() + bar.get_width() / 2, value + 0.015, f"{value:.2f}", ha="center", fontsize=7)
    ax.set_xticks(range(len(metric_keys)), [label for _, label in metric_keys])
    ax.set_ylim(0, 1.12)
    ax.set_ylabel("share of queries / mean reciprocal rank")
    ax.set_title(f"Retrieval on {result['queries']} queries, {result['records']} records "
                 f"({result['families']} families), MiniLM")
    ax.legend(loc="lower right", fontsize=7)
    fig.tight_layout()
    paths.append(out / "retrieval_metrics.png")
    fig.savefig(paths[-1])
    plt.close(fig)

    cal = result["calibration"]
    related, unrelated = cal["raw"]["related"], cal["raw"]["unrelated"]
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    bins = [i / 40 for i in range(-4, 41)]
    ax.hist(unrelated, bins=bins, color=COLORS["unrelated"], alpha=0.8, density=True,
            label=f"unrelated pairs (n={len(unrelated)})")
    ax.hist(related, bins=bins, color=COLORS["related"], alpha=0.6, density=True,
            label=f"related pairs (n={len(related)})")
    ax.axvline(cal["default_min_score"], color="black", linestyle="--", linewidth=1.2,
               label=f"DEFAULT_MIN_SCORE = {cal['default_min_score']:g}")
    lo = min(related + unrelated) if related or unrelated else 0
    ax.set_xlim(max(-0.1, lo - 0.05), 1.0)
    ax.set_xlabel("MiniLM cosine score (symptom query vs. stored record)")
    ax.set_ylabel("density")
    ax.set_title("Score distributions: same-family vs. other-family pairs")
    ax.legend(fontsize=7)
    fig.tight_layout()
    paths.append(out / "retrieval_scores.png")
    fig.savefig(paths[-1])
    plt.close(fig)

    families = list(result["per_family_mrr"])
    if families:
        fig, ax = plt.subplots(figsize=(7.5, 0.7 * len(families) + 1.6))
        height = 0.8 / len(names)
        for i, name in enumerate(names):
            values = [result["per_family_mrr"][f][name] for f in families]
            ys = [j + (i - (len(names) - 1) / 2) * height for j in range(len(families))]  # (a) on top
            ax.barh(ys, values, height, label=SHORT[name], color=COLORS[name])
        ax.set_yticks(range(len(families)), families)
        ax.invert_yaxis()
        ax.set_xlim(0, 1.05)
        ax.set_xlabel("MRR@10 of the family's queries")
        ax.set_title("Per family")
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=len(names), frameon=False)
        fig.tight_layout()
        paths.append(out / "retrieval_families.png")
        fig.savefig(paths[-1])
        plt.close(fig)
    return [str(p) for p in paths]


def write_retrieval(result: dict, out: Path, command: str) -> dict[str, Any]:
    pngs = retrieval_plots(result, out)
    tables = retrieval_tables(result)
    thr, cal = result["threshold"], result["calibration"]
    suggested = cal.get("suggested") or {}
    md = f"""# Retrieval bench

`{command}`

{result['records']} records, {result['queries']} queries, {result['families']} families from `{result['cases']}`;
embeddings: {result['embeddings']}. {_machine_line(result['machine'])}

{tables['metrics']}

recall@k: share of queries with at least one relevant record in the top k. MRR@10: mean of 1/rank of
the first relevant record (0 beyond rank 10, the most a memory search returns). Ranked with
`min_score=-1`; a query's own scenario's record is excluded (it cannot exist before that session).

- (a) records stored with `FixMemory.store_fix_memory` (symptom = `symptom_query(parse_failure(output))`,
  as the store node writes it) in an empty `SqliteStore`; queries through `parse_failure` +
  `symptom_query` + `FixMemory.search_codebase_memory`, as the memory_search node does: the vector
  and BM25 scores of the same candidates fused by a convex combination (stores/hybrid.py); the diagnosis
  search matches its words against the records' causes (`against="cause"`).
- (a′) the same store and queries, vector order only (`FixMemory(hybrid=False)`): what the fusion adds.
- (b) a `SqliteStore` embedding only the fix description, queried with the raw pytest output.
- (c) `BM25Retriever` (langchain-community) over the text (a) embeds, queried with (a)'s query.

## The default minimum score

With `DEFAULT_MIN_SCORE = {thr['default_min_score']:g}`, a session's top-{thr['session_top_k']} search would hide
{thr['hidden_by_default_min_score']} of the {thr['relevant_hits_in_session_top_k']} relevant hits it gets in (a).

MiniLM scores of every query/record pair (same vectors the store searches):

{tables['distributions']}

Calibration rule (`suggest_min_score`): the largest multiple of 0.05 at or below the lowest related
score, so no measured related pair is hidden: **{suggested.get('threshold', 'n/a')}** (keeps
{suggested.get('related_kept', 0):.0%} of related pairs, hides {suggested.get('unrelated_hidden', 0):.0%} of unrelated ones).
Related pairs below the current default: {cal['related_below_default']}; unrelated pairs at or above it:
{cal['unrelated_at_or_above_default']}.

![metrics](retrieval_metrics.png)

![scores](retrieval_scores.png)

{searches_section({'this set': result}, thr['session_top_k'], thr['default_min_score']) if result.get('searches') else ''}
## Per cohort

Scenarios of the `design` cohort existed while the retrieval was being designed; `held-out` ones
were written afterwards, without looking at retrieval results (scenario.toml `cohort`). Same run,
same memory: only the queries are split.

{tables['cohorts']}

## Per family (MRR@10)

{tables['families']}

![families](retrieval_families.png)
"""
    return {**_finish(out, "retrieval", result, md), "png": pngs}


def retrieval_side_by_side(result: dict) -> dict[str, str]:
    """The sets side by side: ranking metrics, and what a session's search delivers."""
    names = list(result["sets"])
    header = ["system", *(f"{n} ({result['sets'][n]['queries']} queries, {result['sets'][n]['records']} records)"
                          for n in names)]
    ranking, delivered = [], []
    for system in result["systems"]:
        by = [result["sets"][n]["systems"][system] for n in names]
        ranking.append([SHORT[system], *(f"{m['recall@1']:.3f} / {m['recall@3']:.3f} / {m['mrr']:.3f}" for m in by)])
        delivered.append([SHORT[system], *(
            f"{m['delivered']['precision']:.3f} / {m['delivered']['recall_shown']:.3f} / "
            f"{m['delivered']['nothing_relevant_shown']:.3f} / {m['delivered']['shown_per_query']:.2f}"
            + (f" / abstained {m['delivered']['abstained']} of {m['delivered']['without_relevant']}"
               if m["delivered"].get("without_relevant") else "") for m in by)])
    points = []
    for i, point in enumerate(result["sets"][names[0]]["operating_points"]):
        rule = (f"min score {point['min_score']:g}" + (f", fused ≥ {point['floor']:g}" if point.get("floor") else "")
                + (f", within {point['margin']:g} of the best" if point["margin"] else ""))
        points.append([rule, *(
            f"{p['precision']:.3f} / {p['recall_shown']:.3f} / {p['shown_per_query']:.2f}"
            for p in (result["sets"][n]["operating_points"][i] for n in names))])
    return {"ranking": md_table(header, ranking), "delivered": md_table(header, delivered),
            "operating_points": md_table(["rule (product, top 3)", *header[1:]], points)}


def write_retrieval_sets(result: dict, out: Path, command: str) -> dict[str, Any]:
    """One report per set in ``out/<set>/`` (as ``write_retrieval``) and the side-by-side page."""
    pngs: list[str] = []
    for name, one in result["sets"].items():
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        pngs += write_retrieval(one, folder, command)["png"]
    tables = retrieval_side_by_side(result)
    sets = "\n".join(f"- **{n}**: `{r['cases']}` ({r['queries']} queries, {r['records']} records, "
                     f"{r['families']} families); full report: [{n}/retrieval.md]({n}/retrieval.md)"
                     for n, r in result["sets"].items())
    md = f"""# Retrieval bench: the case sets side by side

`{command}`

Embeddings: {result['embeddings']}. {_machine_line(result['machine'])}

{sets}

## Ranking: recall@1 / recall@3 / MRR@10

{tables['ranking']}

## What a session's search delivers (top {result['session_top_k']}, min score {result['default_min_score']:g})

precision (relevant hits shown / hits shown) / recall of what is shown (a relevant hit among them) /
queries shown nothing relevant / hits shown per query. BM25 has no calibrated score and always shows
its top {result['session_top_k']}.

{tables['delivered']}

## Operating points of the product (precision / recall of what is shown / hits shown per query)

Candidate rules fixed before measuring; the first is the default (stores/hybrid.py), the second the
rule before issue 26 (top 3 at the minimum cosine score). "fused ≥": the fused score's floor; a
margin shows only hits whose fused score is within it of the best shown one.

{tables['operating_points']}

{searches_section(result['sets'], result['session_top_k'], result['default_min_score'])}
## Project identity: a fix of the query's own project, for another kind of bug, ranked first

{identity_table(result['sets'])}

## The diagnosis search's ranking

{_second_search_lines(result)}
"""
    return {**_finish(out, "retrieval", result, md), "png": pngs}


def _second_search_lines(result: dict) -> str:
    lines = []
    for name, one in result["sets"].items():
        s = one.get("second_search", {})
        if s.get("queries"):
            lines.append(f"- **{name}** (diagnoses: {s.get('diagnosis', '?')}): the diagnosis search finds a relevant "
                         f"fix in its top 3 (no threshold) for {s['recall@3']:.3f} of {s['queries']} queries; of the "
                         f"{s['first_missed']} the symptom search missed, it recovers {s['recovered']}; either "
                         f"search: {s['either_recall@3']:.3f}.")
        else:
            lines.append(f"- **{name}**: no diagnosis for its queries (no diagnoses file, no scripted scenario).")
    return "\n".join(lines)


IDENTITY_ROWS = (("product", "first search (product)"), ("diagnosis_search", "diagnosis search"),
                 ("product_vector_only", "vector only"), ("bm25", "BM25"))


def identity_table(sets: dict[str, dict]) -> str:
    """Per set: of the queries whose own project has a record of another kind in memory, how many got
    such a record first (retrieval.project_identity)."""
    names = [n for n, one in sets.items() if one.get("project_identity")]
    rows = []
    for key, label in IDENTITY_ROWS:
        cells = []
        for n in names:
            m = sets[n]["project_identity"].get(key)
            cells.append("-" if not m or not m["exposed"] else f"{m['own_project_other_kind_first']}/{m['exposed']}")
        rows.append([label, *cells])
    return md_table(["search", *names], rows)


SEARCH_ROWS = (("first", "first search (symptoms)"), ("diagnosis", "diagnosis search"),
               ("session", "session (either search)"))


def searches_table(sets: dict[str, dict]) -> str:
    """Per set: what the model saw before its first edit (retrieval.searches)."""
    names = [n for n, one in sets.items() if one.get("searches")]
    header = ["search", *(f"{n} ({sets[n]['searches']['queries']} q, {sets[n]['searches']['diagnosed']} diagnosed)"
                          for n in names)]
    rows = []
    for key, label in SEARCH_ROWS:
        cells = []
        for n in names:
            m = sets[n]["searches"].get(key)
            if m is None:
                cells.append("-")
            elif key == "session":
                cells.append(f"{m['recall@3']:.3f} / {m['precision_all_shown']:.3f} / {m['shown_per_query']:.2f}")
            else:
                cells.append(f"{m['recall_shown']:.3f} / {m['precision']:.3f} / {m['shown_per_query']:.2f}")
        rows.append([label, *cells])
    return md_table(header, rows)


def searches_section(sets: dict[str, dict], top_k: int, min_score: float) -> str:
    sources = "\n".join(f"- **{n}**: diagnoses {one['searches'].get('diagnosis_source', '?')}"
                        for n, one in sets.items() if one.get("searches"))
    return f"""## What the model saw before its first edit

A session searches memory twice before its first edit: with the observed symptoms (`memory_search`),
then with the model's stated diagnosis (`diagnosis_search`, `"<ErrorType>: <cause>"`). Each cell:
recall (a relevant record among the hits shown, top {top_k} at min score {min_score:g}) / precision of
the hits shown / hits shown per query. Session: the hits of either search (a record shown by both
counts once); its recall is recall@3 of what the model saw, its precision that of all hits shown.

{searches_table(sets)}

{sources}
"""


# -- sessions -----------------------------------------------------------------------------------------

def sessions_tables(result: dict) -> dict[str, str]:
    five = md_table(
        ["session", "records in memory", "session 1's fix found before first edit", "rank", "score",
         "model requests", "tool calls", "wall time (s)", "status", "original tests"],
        [[r["session"], r["records_in_memory"], "yes" if r["retrieved_before_first_edit"] else "no",
          r["session1_rank"] or "-", f"{r['session1_score']:.4f}" if r["session1_score"] is not None else "-",
          r["model_requests"], r["tool_calls"], f"{r['wall_time_s']:.2f}", r["status"],
          ("passed: " if r["original_tests_passed"] else "FAILED: ") + r["original_tests_outcome"]]
         for r in result["five_sessions"]["sessions"]])
    fam = md_table(
        ["#", "scenario", "project", "records in memory", "hits before first edit (from)", "best score",
         "model requests", "tool calls", "wall time (s)", "status", "original tests"],
        [[i, r["scenario"], r["project"], r["records_in_memory"],
          ", ".join(r["hits_from"]) or "none", f"{r['best_score']:.4f}" if r["best_score"] is not None else "-",
          r["model_requests"], r["tool_calls"], f"{r['wall_time_s']:.2f}", r["status"],
          "passed" if r["original_tests_passed"] else "FAILED"]
         for i, r in enumerate(result["family_run"]["sessions"], start=1)])
    return {"five": five, "family": fam}


def sessions_plots(result: dict, out: Path) -> list[str]:
    plt = _plt()
    paths = []
    rows = result["five_sessions"]["sessions"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.8))
    xs = [r["session"] for r in rows]
    scores = [r["session1_score"] or 0 for r in rows]
    left.bar(xs, scores, color=[COLORS["related"] if r["retrieved_before_first_edit"] else "#cccccc" for r in rows])
    for r, s in zip(rows, scores, strict=True):
        label = f"rank {r['session1_rank']}" if r["session1_rank"] else ("stores it" if r["session"] == 1 else "not found")
        left.text(r["session"], s + 0.02, label, ha="center", fontsize=7)
    left.axhline(result.get("min_score", 0), color="black", linestyle="--", linewidth=1,
                 label=f"minimum score {result.get('min_score', 0):g}")
    left.legend(fontsize=7, loc="upper left")
    left.set_ylim(0, 1.1)
    left.set_xticks(xs)
    left.set_xlabel("session")
    left.set_ylabel("score of session 1's record")
    left.set_title("Found before the first edit?")
    right.bar(xs, [r["wall_time_s"] for r in rows], color=COLORS["sqlite"])
    for r in rows:
        right.text(r["session"], r["wall_time_s"], f"{r['model_requests']} req\n{r['tool_calls']} tools",
                   ha="center", va="bottom", fontsize=7)
    right.set_xticks(xs)
    right.set_xlabel("session")
    right.set_ylabel("wall time (s)")
    right.set_title(f"Cost per session (model: {result['model']})")
    right.set_ylim(0, max(r["wall_time_s"] for r in rows) * 1.35)
    fig.suptitle(f"{len(rows)} sessions of {result['five_sessions']['scenario']}, each starting from session 1's record")
    fig.tight_layout()
    paths.append(out / "sessions_five.png")
    fig.savefig(paths[-1])
    plt.close(fig)

    fam = result["family_run"]["sessions"]
    fig, ax = plt.subplots(figsize=(8, 3.8))
    xs = list(range(1, len(fam) + 1))
    ax.bar(xs, [r["best_score"] or 0 for r in fam], color=COLORS["related"], label="best hit's score")
    for x, r in zip(xs, fam, strict=True):
        text = f"from {r['best_from']}" if r["best_from"] else "memory empty" if not r["records_in_memory"] else "no hit"
        ax.text(x, (r["best_score"] or 0) + 0.02, text, ha="center", fontsize=7)
    ax.axhline(result.get("min_score", 0), color="black", linestyle="--", linewidth=1,
               label=f"minimum score {result.get('min_score', 0):g}")
    ax.legend(fontsize=7, loc="upper left")
    ax.set_xticks(xs, [f"{r['scenario']}\n({r['records_in_memory']} in memory)" for r in fam], fontsize=7)
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("score of the best memory hit")
    ax.set_title(f"Family {result['family_run']['family']}: scenarios in sequence, memory growing")
    fig.tight_layout()
    paths.append(out / "sessions_family.png")
    fig.savefig(paths[-1])
    plt.close(fig)
    return [str(p) for p in paths]


def write_sessions(result: dict, out: Path, command: str) -> dict[str, Any]:
    pngs = sessions_plots(result, out)
    tables = sessions_tables(result)
    note = ("The scripted model plays each scenario's fixed script, so model requests and tool calls are the "
            "same in every session by construction: they show the same harness ran, not that memory saved "
            "work. A live model (`--model openai:...`) is where a found fix can shorten a session."
            if result["scripted"] else f"Model: {result['model']} (live).")
    md = f"""# Sessions bench

`{command}`

Embeddings: {result['embeddings']} (loaded once before session 1: {result.get('model_load_s', '?')} s, not in any
session's wall time); model: {result['model']}; minimum score {result.get('min_score')}. {_machine_line(result['machine'])}

## {len(result['five_sessions']['sessions'])} sessions on {result['five_sessions']['scenario']}

Session 1 starts on an empty memory and stores its confirmed fix. Every later session runs on a
fresh workspace and a new thread with only session 1's record in memory (records stored by
later sessions are deleted before the next starts). "Found" means the mandatory memory search,
which runs before any file is read or edited, returned session 1's record.

{tables['five']}

{note}

![five sessions](sessions_five.png)

## Family run: {result['family_run']['family']}

Every scenario of the family in name order on one memory that keeps each confirmed fix.

{tables['family']}

![family run](sessions_family.png)

Session data (events, reports, workspaces): `{result['data_dir']}`.
"""
    return {**_finish(out, "sessions", result, md), "png": pngs}


# -- perf -----------------------------------------------------------------------------------------------

def hnsw_recall(row: dict) -> str:
    """A latency row's recall@k of its HNSW search against exact search ("-": the search is exact)."""
    hnsw = row.get("hnsw")
    return f"{hnsw['recall_at_' + str(hnsw['k'])]:.3f}" if hnsw else "-"


def _hnsw_table(rows: list[dict]) -> str:
    """The HNSW rows' recall and timings against exact search ("" when no row has them)."""
    cells = []
    for r in rows:
        if h := r.get("hnsw"):
            cells.append([r["backend"], f"{r['records']:,}", hnsw_recall(r), h["k"],
                          f"{h['hnsw_search']['p50_ms']:.1f} / {h['hnsw_search']['p95_ms']:.1f}",
                          f"{h['exact_search']['p50_ms']:.1f} / {h['exact_search']['p95_ms']:.1f}",
                          "yes" if h["hnsw_index_used"] else "no", h["ef_search"]])
    header = ["backend", "records", "recall@k vs exact", "k", "HNSW search p50 / p95 (ms)",
              "exact search p50 / p95 (ms)", "HNSW index used (EXPLAIN)", "hnsw.ef_search"]
    return md_table(header, cells) if cells else ""


def ratio_cells(row: dict) -> list[str]:
    """A latency row's floor (embedding + numpy exact, p50), its ratios to it, its first search."""
    if "floor_p50_ms" not in row:  # a result written before the ratios were
        return ["", "", "", ""]
    first = row.get("first_search_ms")
    return [f"{row['floor_p50_ms']:.1f}", f"{row['whole_to_floor']:.2f}x", f"{row['vector_to_numpy']:.1f}x",
            "" if first is None else f"{first:.1f}"]


def cold_ratios(cold: dict) -> str:
    ratios = cold.get("ratios") or {}
    if not ratios:
        return ""
    text = (f"Cold `memory search` / `--help`: **{ratios['memory_search_to_help']:.2f}x**; / the embedding floor: "
            f"**{ratios['memory_search_to_floor']:.2f}x** (wall p50s).")
    if ratios.get("run_to_floor"):
        text += (f" Cold `run {cold.get('scenario', 'alpha')}` / (its test runs {ratios['run_tests_p50_ms'] / 1000:.2f} s + "
                 f"the embedding floor): **{ratios['run_to_floor']:.2f}x**.")
    return text


def _session_floor(ses: dict) -> str:
    if not ses.get("wall_to_floor"):
        return ""
    return (f"The durable session's wall p50 against what it cannot do without (its test runs, the fresh copy's "
            f"included, plus one query embedding: {ses['floor_ms']:.0f} ms): **{ses['wall_to_floor']:.2f}x**.")


def perf_tables(result: dict) -> dict[str, str]:
    lat = md_table(
        ["backend", "records", "embedding p50 / p95 (ms)", "vector search p50 / p95 (ms)",
         "numpy exact p50 / p95 (ms)", "whole search p50 / p95 (ms)", "floor p50 (ms)", "whole / floor",
         "vector / numpy", "first search after writes (ms)", "top-3 = numpy", "HNSW recall@3 vs exact"],
        [[r["backend"], f"{r['records']:,}", f"{r['embedding']['p50_ms']:.1f} / {r['embedding']['p95_ms']:.1f}",
          f"{r['vector_search']['p50_ms']:.1f} / {r['vector_search']['p95_ms']:.1f}",
          f"{r['numpy_exact']['p50_ms']:.2f} / {r['numpy_exact']['p95_ms']:.2f}",
          f"{r['end_to_end']['p50_ms']:.1f} / {r['end_to_end']['p95_ms']:.1f}", *ratio_cells(r),
          r["top3_agrees_with_numpy"], hnsw_recall(r)]
         for r in result["latency"]["rows"]])
    s = result["sessions"]["summary"]
    ses = md_table(
        ["checkpointer", "runs", "session wall p50 (ms)", "min / max (ms)", "inside checkpointer calls (mean)",
         "in the test subprocess (mean)"],
        [[("SQLite (`SqliteSaver`, durable)" if m == "sqlite" else "in-memory (`InMemorySaver`)"), s[m]["wall"]["n"],
          f"{s[m]['wall']['p50_ms']:.0f}", f"{s[m]['wall']['min_ms']:.0f} / {s[m]['wall']['max_ms']:.0f}",
          f"{s[m]['checkpointer_mean_ms']:.1f} ms in {s[m]['checkpointer_calls']} calls",
          f"{s[m]['test_share_mean']:.0%} ({s[m]['test_subprocess_mean_s']:.2f} s)"] for m in ("sqlite", "memory")])
    cold = md_table(
        ["process", "runs", "wall p50 (s)", "wall min / max (s)", "CPU p50 (s)", "exit 0"],
        [[f"`{c.get('process') or 'astra-memory ' + c['argv']}`", c["wall"]["n"], f"{c['wall']['p50_ms'] / 1000:.2f}",
          f"{c['wall']['min_ms'] / 1000:.2f} / {c['wall']['max_ms'] / 1000:.2f}",
          f"{c['cpu']['p50_ms'] / 1000:.2f}" if c.get("cpu") else "", "yes" if c["ok"] else "NO"]
         for c in result["cold_start"]["commands"].values()])
    return {"latency": lat, "hnsw": _hnsw_table(result["latency"]["rows"]), "sessions": ses, "cold": cold}


def _hnsw_section(result: dict, table: str) -> str:
    if not table:
        return ""
    return f"""
### HNSW recall against exact search

{table}

The same {result['latency']['queries']} queries, at each size, through the store's own search (HNSW, with the
sessions' `hnsw.ef_search`) and through exact search over the very same stored vectors (the same
`ORDER BY embedding <=> query` with index scans switched off, so PostgreSQL scans and sorts). Recall@k:
the share of the exact top k that the HNSW top k also returned. *HNSW index used*: EXPLAIN of the
store's query (at a few records the planner may prefer a scan, which is then exact).
"""


def perf_plots(result: dict, out: Path) -> list[str]:
    plt = _plt()
    paths = []
    rows = result["latency"]["rows"]
    fig, ax = plt.subplots(figsize=(10, 4.5))
    for backend in result["backends"]:
        mine = [r for r in rows if r["backend"] == backend]
        xs = [r["records"] for r in mine]
        for key, label, color, style in (
                ("vector_search", f"{backend}: vector search", COLORS["sqlite"], "-o"),
                ("end_to_end", f"{backend}: whole search (embed + search)", COLORS["end_to_end"], "-s")):
            ax.plot(xs, [r[key]["p50_ms"] for r in mine], style, color=color, label=f"{label} p50")
            ax.fill_between(xs, [r[key]["p50_ms"] for r in mine], [r[key]["p95_ms"] for r in mine],
                            color=color, alpha=0.15)
    base = [r for r in rows if r["backend"] == result["backends"][0]]
    xs = [r["records"] for r in base]
    ax.plot(xs, [r["numpy_exact"]["p50_ms"] for r in base], "-^", color=COLORS["numpy"], label="numpy exact (floor) p50")
    ax.fill_between(xs, [r["numpy_exact"]["p50_ms"] for r in base], [r["numpy_exact"]["p95_ms"] for r in base],
                    color=COLORS["numpy"], alpha=0.15)
    ax.plot(xs, [r["embedding"]["p50_ms"] for r in base], "--", color=COLORS["embedding"],
            label="query embedding (MiniLM) p50")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(xs, [f"{x // 1000}k" if x >= 1000 and x % 1000 == 0 else str(x) for x in xs])
    ax.minorticks_off()
    ax.set_xlabel("records in memory")
    ax.set_ylabel("latency (ms), band = p50..p95")
    ax.set_title("Memory search latency")
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    paths.append(out / "perf_latency.png")
    fig.savefig(paths[-1])
    plt.close(fig)

    s = result["sessions"]["summary"]
    cold = result["cold_start"]["commands"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.8))
    labels = ["SQLite\ncheckpointer", "in-memory\ncheckpointer"]
    walls = [s[m]["wall"]["p50_ms"] / 1000 for m in ("sqlite", "memory")]
    tests = [s[m]["test_subprocess_mean_s"] for m in ("sqlite", "memory")]
    left.bar(labels, tests, color=COLORS["tests"], label="inside the test subprocess (mean)")
    left.bar(labels, [w - t for w, t in zip(walls, tests, strict=True)], bottom=tests, color=COLORS["sqlite"],
             label="everything else")
    for i, (w, m) in enumerate(zip(walls, ("sqlite", "memory"), strict=True)):
        left.text(i, w, f"{w:.2f} s\n(checkpointer calls {s[m]['checkpointer_mean_ms']:.0f} ms)",
                  ha="center", va="bottom", fontsize=7)
    left.set_ylabel("session wall time p50 (s)")
    left.set_title(f"One session of {result['sessions']['scenario']} (in process)")
    left.set_ylim(0, max(walls) * 1.5)
    left.legend(fontsize=7, loc="upper center", ncol=2)
    names = [{"memory search": "memory\nsearch", "--help": "--help", "run": f"run\n{result['cold_start'].get('scenario', '')}"
              }.get(k, k.replace(" ", "\n")) for k in cold]
    p50 = [c["wall"]["p50_ms"] / 1000 for c in cold.values()]
    err = [[p - c["wall"]["min_ms"] / 1000 for p, c in zip(p50, cold.values(), strict=True)],
           [c["wall"]["max_ms"] / 1000 - p for p, c in zip(p50, cold.values(), strict=True)]]
    right.bar(names, p50, yerr=err, capsize=4,
              color=[COLORS["end_to_end"], COLORS["unrelated"], COLORS["embedding"], COLORS["tests"]][:len(names)])
    for i, v in enumerate(p50):
        right.text(i, v / 2, f"{v:.1f} s", ha="center", va="center", fontsize=9, color="white", fontweight="bold")
    right.set_ylabel("wall time p50 (s), bars = min..max")
    right.set_title("Cold start (whole process)")
    fig.tight_layout()
    paths.append(out / "perf_sessions_cold.png")
    fig.savefig(paths[-1])
    plt.close(fig)
    return [str(p) for p in paths]


def test_run_section(runs: dict) -> str:
    """perf.md's table of one test run's cost in each way of judging it (bench/perf.py
    ``judging_costs``), and the private root's cost per test run."""
    if not runs.get("modes"):
        return "Not measured."
    rows = ["| mode | p50 ms | extra over exit code only, ms | all passed |", "|---|---:|---:|---|"]
    rows += [f"| {mode} | {m['p50_ms']:.0f} | {m['extra_ms']:.1f} | {'yes' if m['all_passed'] else 'NO'} |"
             for mode, m in runs["modes"].items()]
    private = runs.get("private_root_extra_ms")
    said = (f"The private root every test step of a session runs in (nodes/common.py `private_step`) adds "
            f"**{private:.1f} ms per test run** (median of the same-round differences with and without it)."
            if private is not None else f"The private root was not measured here: {runs.get('private_root')}.")
    return ("\n".join(rows) + f"\n\nScenario {runs['scenario']}, its bug fixed, {runs['repeats']} runs per mode, "
            f"interleaved. {said}")


def write_perf(result: dict, out: Path, command: str) -> dict[str, Any]:
    pngs = perf_plots(result, out)
    tables = perf_tables(result)
    lat = result["latency"]
    build = "; ".join(f"{b}: {v['records']:,} records in {v['insert_s']} s ({v['records_per_s']:,} records/s)"
                      for b, v in lat["build"].items())
    ses = result["sessions"]
    md = f"""# Perf bench

`{command}`

{_machine_line(result['machine'])} Model load (once per process): {result['model_load_s']} s.

## Memory search latency

{tables['latency']}

Records: MiniLM vectors of {lat['base_texts']} real texts from the scenario corpus plus Gaussian noise
(sigma {lat['noise_sigma']} per dimension, re-normalised), each with a full record value, inserted through
`BaseStore.batch(PutOp ...)` (the store's own put path) with the vectors precomputed. Build: {build}.
{lat['queries']} real symptom queries from the shipped retrieval cases, {lat['repeats']} timed calls per
cell, all parts measured at each size in turn. *Embedding*: `MiniLMEmbeddings.embed_query` of a query text
it has not seen. *Vector search*:
`store.search(limit=3)` with the query vector precomputed (the store's own search: on SQLite candidates
from its in-process matrix of the vectors, scored again in SQL, values decoded; backends/sqlite/search.py).
*numpy exact*: `vectors @ q` + top-3 over the same vectors, BLAS limited to one thread.
*Whole search*: `FixMemory.search_codebase_memory` with a new query text (embedding included, 40
candidates, BM25 fusion). *Floor*: embedding p50 + numpy exact p50; *whole / floor* and *vector / numpy*:
p50 over p50. *First search after writes*: one search right after that size's records went in (SQLite
reads its matrix of vectors again then; a one-shot `memory search` pays this once). *HNSW recall@3 vs
exact*: only for a backend whose search is approximate (PostgreSQL's pgvector HNSW; SQLite's search is
exact, see *top-3 = numpy*).
{_hnsw_section(result, tables['hnsw'])}
![latency](perf_latency.png)

## Cost of durability, and time inside the tests

{tables['sessions']}

Scenario {ses['scenario']}, scripted model, {ses['repeats']} runs per checkpointer, alternating, after one
warm-up session. The memory is a fresh SQLite store in both. Durability cost measured directly (time
inside `put` / `put_writes` / `get_tuple`, SQLite minus in-memory): **{ses['durability_cost_inside_ms']:.1f} ms**
per session; as a difference of session wall times (p50): {ses['durability_cost_p50_ms']:.0f} ms, which on a
busy machine is within the run-to-run noise (see min / max). {_session_floor(ses)}

## One test run: judging it, and its private root

{test_run_section(result.get('test_runs') or {{}})}

## Cold start

{tables['cold']}

{cold_ratios(result['cold_start'])}

Whole processes (`subprocess.run`), {result['cold_start']['repeats']} runs each, against a memory of
{result['cold_start']['records_in_memory']} records. `--help` is the interpreter plus CLI imports;
`memory search` adds opening the memory, loading MiniLM and one search; `run` is a whole bundled session
on an empty memory (scripted model), whose test runs' own time comes from its report (`test_seconds`). The
embedding floor is the
same interpreter loading MiniLM and embedding one query with nothing else (its runtime, ONNX Runtime or
PyTorch as configured, and the weights): `memory search` minus the floor is ours. CPU is the child
process's user + system time, steadier than wall time on a shared machine.

![sessions and cold start](perf_sessions_cold.png)
"""
    return {**_finish(out, "perf", result, md), "png": pngs}

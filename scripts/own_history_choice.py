"""How the own-history rule of issue 35's third round was chosen (stores/confidence.py, recurrence.py, memory.py):
on all nine histories of bench history, each variant of the rule applied offline to every query's whole memory.

The data: the verdict caches of two bench history runs (``--out`` folders; nothing is judged again), the five
development projects searched as ``bench history`` does (the others' fixes not in memory) and the four
kept-apart ones that have been searched before (schema, pathspec, tabulate, simpleeval) as ``bench history
--blind`` does (the development projects' fixes in memory as other projects'). For each query, before its
commit is stored, every stored fix is read with its cosine (the store's own vector search, no limit); a
variant re-applies the product's search to that list: the candidate pool (the vector's best 40, and with
``own_pool`` the project's own best 40 too), the recurrence rule, the fused score, the strength order and the
evidence gate with its bars, the fused floor, margin and top 3 (stores/hybrid.py ``deliverable``). The rule
before this round is the variant with no option set; it reproduces the product's rankings and hits of the
two runs (main at 41c6a6f) query for query.

The choice, written before any variant's figures were computed: over the nine histories together, a variant
is eligible if its recall@3 is at least the rule before's (49 of 59 queries with a relevant earlier fix) and
bench retrieval's dev and dev-extra sets lose nothing (none of their queries has a fix of its own project in
memory, so no variant below can change them: checked by running them); among the eligible, the most queries
answered right (shown a relevant fix where there is one, nothing where there is none); then the higher
precision of the hits shown; then the higher recall@3; then the fewer changes.

    .venv/bin/python scripts/own_history_choice.py /tmp/p2-dev /tmp/p2-seen
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from astra_memory.backends.sqlite.store import open_sqlite_store
from astra_memory.bench import history as H
from astra_memory.context import DEFAULT_MIN_SCORE
from astra_memory.learn.store_commit import confirmation_session
from astra_memory.stores import confidence as C
from astra_memory.stores.embeddings import make_embeddings
from astra_memory.stores.hybrid import bm25_scores, deliverable, fused_scores
from astra_memory.stores.memory import FixMemory
from astra_memory.testrun.symptoms import failing_test_names, parse_failure, symptom_query, traceback_functions

POOL = 40
INF = float("inf")


def dump(setting: str, folder: Path, embeddings, workdir: Path) -> list[dict]:
    """Every query of the setting with every stored fix (value and cosine), in the bench's time order."""
    projects, others = (H.BLIND_PROJECTS, H.DEV_PROJECTS) if setting == "seen" else (H.DEV_PROJECTS, {})
    learned = {n: H.learn_project(n, b, folder) for n, b in {**projects, **others}.items()}
    rows = []
    for name in projects:
        with open_sqlite_store(workdir / f"{setting}-{name}.sqlite", embeddings) as store:
            memory = FixMemory(store)
            for other in [i for o, d in learned.items() if o != name for i in d["confirmed"]]:
                H._store(memory, other)
            earlier: list = []
            for item in learned[name]["confirmed"]:
                failure = parse_failure(item.verdict.failing_output)
                failure.failing_ids = list(item.verdict.failing_tests)
                query = symptom_query(failure)
                found = store.search(memory.namespace, query=query, limit=10_000)
                rows.append({"project": name, "query": query,
                             "cands": [(i.value, float(i.score)) for i in found],
                             "relevant": {confirmation_session(e.commit) for e in earlier
                                          if set(item.functions) & set(e.functions)}})
                H._store(memory, item)
                earlier.append(item)
    return rows


def old_recurrence(value: dict, project_id: str, failing: frozenset, functions: frozenset) -> bool:
    """The recurrence rule before this round: a bare module frame counted as the failure's function."""
    if value.get("project_id") != project_id or not failing or not functions:
        return False
    if not failing_test_names(str(value.get("symptom") or "")):
        return False
    return not C.project_tie(value, failing, functions)


def search(row: dict, *, bare=False, own_pool=False, own_bar=0.50, module=False, other_bar=0.65,
           own_lexical=None) -> tuple[list[str], list[str]]:
    """(the ranking's ids, the ids shown) of one query under a variant of the rule."""
    project, query = f"history:{row['project']}", row["query"]
    cands = row["cands"][:POOL]
    if own_pool:
        cands = cands + [c for c in row["cands"][POOL:] if c[0].get("project_id") == project][:POOL]
    failing, functions = failing_test_names(query), traceback_functions(query)
    has_own = C.own_history((v for v, _ in cands), project)
    frames = C.function_frames(functions) if bare else functions
    cands = [c for c in cands if not old_recurrence(c[0], project, failing, frames)]
    cosines = [c for _, c in cands]
    lexical = bm25_scores(query, [v.get("embed_text", "") for v, _ in cands])
    fused = fused_scores(cosines, lexical)
    if own_lexical is not None and has_own:  # the project's own fixes ranked with more weight on words
        own = [i for i, (v, _) in enumerate(cands) if C.confirmed_in(v, project)]
        best = max((lexical[i] for i in own), default=0.0) or 1.0
        for i in own:
            fused[i] = own_lexical * cosines[i] + (1 - own_lexical) * lexical[i] / best
    ranked = sorted(range(len(cands)), key=lambda i: -fused[i])
    if has_own:
        ranked.sort(key=lambda i: C.strength(cands[i][0], project, failing, functions))
    ranked.sort(key=lambda i: cands[i][0].get("status") == "superseded")

    def allowed(value: dict, cosine: float) -> bool:
        if C.confirmed_in(value, project):
            if C.project_tie(value, failing, functions):
                return True
            return cosine >= own_bar or (module and cosine >= 0.50 and C.same_module(value, functions))
        return cosine >= (other_bar if has_own else 0.50)

    keep = deliverable([cosines[i] for i in ranked], DEFAULT_MIN_SCORE, 3, fused=[fused[i] for i in ranked],
                       allowed=[allowed(cands[i][0], cosines[i]) for i in ranked])
    ids = [cands[i][0]["session_id"] for i in ranked]
    return ids, [ids[k] for k in keep]


def figures(rows: list[dict], **variant) -> tuple[int, int, int, int, int]:
    """(recall@3 count, queries shown a relevant fix, queries with nothing relevant shown nothing, relevant hits
    shown, hits shown)."""
    r3 = found = abstained = good = shown = 0
    for row in rows:
        ids, hits = search(row, **variant)
        relevant = row["relevant"]
        good += sum(h in relevant for h in hits)
        shown += len(hits)
        if relevant:
            r3 += any(i in relevant for i in ids[:3])
            found += any(h in relevant for h in hits)
        else:
            abstained += not hits
    return r3, found, abstained, good, shown


VARIANTS = {
    "before (main at 41c6a6f)": {},
    "bare": {"bare": True},
    "own pool": {"own_pool": True},
    "bare + own pool": {"bare": True, "own_pool": True},
    **{f"bare, own bar {b}": {"bare": True, "own_bar": b} for b in (0.55, 0.60, 0.65, 0.70, 0.75, 0.80, INF)},
    "bare, other bar none": {"bare": True, "other_bar": INF},
    **{f"bare, own bar {b}, other none": {"bare": True, "own_bar": b, "other_bar": INF} for b in (0.60, 0.70, 0.80)},
    **{f"bare, module or own bar {b}": {"bare": True, "module": True, "own_bar": b} for b in (0.65, 0.70, 0.75, 0.80)},
    **{f"bare, module or own bar {b}, other none": {"bare": True, "module": True, "own_bar": b, "other_bar": INF}
       for b in (0.70, 0.75, 0.80)},
    **{f"bare + own pool, module or own bar {b}": {"bare": True, "own_pool": True, "module": True, "own_bar": b}
       for b in (0.65, 0.70, 0.75)},
    **{f"bare + own pool, module or own bar {b}, other none": {"bare": True, "own_pool": True, "module": True,
                                                               "own_bar": b, "other_bar": INF}
       for b in (0.65, 0.70, 0.75)},
    **{f"bare + own pool, own words {w}": {"bare": True, "own_pool": True, "own_lexical": w} for w in (0.7, 0.5, 0.3)},
    **{f"bare + own pool, module or own bar 0.70, own words {w}": {"bare": True, "own_pool": True, "module": True,
                                                                   "own_bar": 0.70, "own_lexical": w}
       for w in (0.5, 0.3)},
}


def main(dev_folder: str, seen_folder: str) -> None:
    embeddings = make_embeddings("minilm")
    workdir = Path(tempfile.mkdtemp(prefix="own-history-choice-"))
    try:
        sets = {"dev": dump("dev", Path(dev_folder), embeddings, workdir),
                "seen": dump("seen", Path(seen_folder), embeddings, workdir)}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    before = None
    score = {}
    for name, variant in VARIANTS.items():
        parts = {s: figures(rows, **variant) for s, rows in sets.items()}
        total = [sum(x) for x in zip(*parts.values(), strict=True)]
        r3, found, abstained, good, shown = total
        before = before or total
        precision = good / shown if shown else 0.0
        cells = " | ".join(
            f"{s}: r@3 {p[0]}, shown a relevant {p[1]}, abstained {p[2]}, precision {p[3]}/{p[4]}" for s, p in parts.items())
        print(f"{name}: {cells} | all: r@3 {r3}, right {found + abstained}, precision {precision:.2f}")
        if r3 >= before[0]:
            score[name] = (found + abstained, round(precision, 4), r3, -len(variant))
    print("chosen:", max(score, key=score.get))


if __name__ == "__main__":
    main(*sys.argv[1:3])

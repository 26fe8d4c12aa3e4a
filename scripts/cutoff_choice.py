"""How the fusion and the cut-off of stores/hybrid.py were chosen (issue 26), on the development sets only.

Every record of dev and dev-extra is stored through the product's path (``store_case_record``, with the
scenarios' scripted diagnoses as their causes), each query runs with its own scenario's record left out
of memory (``left_out``), and the vector search's candidates are then re-ranked and cut by each rule:

- ranking: rank fusion (RRF, the rule before) and convex fusion with vector weights 0.5-1.0
  (recall@1 / recall@3 / MRR@10 of the first and the diagnosis search);
- delivery: weight x floor x margin, and "agreement" (a hit in the top 3 of both orders): recall of
  the hits shown / their precision / hits shown per query, per search and for the session;
- the diagnosis search's lexical text: the embedded text (symptom + fix) or the record's cause.

    .venv/bin/python scripts/cutoff_choice.py
    .venv/bin/python scripts/cutoff_choice.py --diagnosis   # the diagnosis search's own floor and margin

The blind sets are not read: they are for reporting, never for choosing (docs/results.md). blind-3 is
read since the third round of issue 26: it had been run twice and has been looked at since.
"""

from __future__ import annotations

import itertools
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from astra_memory.backends.sqlite.store import open_sqlite_store  # noqa: E402
from astra_memory.bench.query_cases import DEV_EXTRA_CASES, SHIPPED_CASES, load_cases  # noqa: E402
from astra_memory.bench.retrieval import (  # noqa: E402
    left_out,
    record_diagnoses,
    set_diagnoses,
    store_case_record,
)
from astra_memory.stores.embeddings import MiniLMEmbeddings  # noqa: E402
from astra_memory.stores.hybrid import (  # noqa: E402
    CANDIDATE_POOL,
    bm25_scores,
    reciprocal_rank_fusion,
)
from astra_memory.stores.mechanism import mechanism_text  # noqa: E402
from astra_memory.stores.memory import FixMemory, lexical_text  # noqa: E402
from astra_memory.stores.recurrence import another_bug_of_the_project  # noqa: E402
from astra_memory.testrun.symptoms import (  # noqa: E402
    failing_test_names,
    parse_failure,
    symptom_query,
)

DEV_SETS = {"dev": SHIPPED_CASES, "dev-extra": DEV_EXTRA_CASES,
            # Run twice as a blind set (docs/results.md); from the third round of issue 26 on it has been
            # looked at, one miss at a time, and is a development set. blind-4 took its place.
            "blind-3": ROOT / "evals" / "blind3" / "cases.jsonl"}


def candidates(embeddings) -> dict[str, list[tuple[list[str], dict[str, tuple[str, list[dict]]]]]]:
    """Per set, per query: its relevant ids and, per search, the query text and the vector candidates
    (id, cosine, the lexical texts) as the product's store returns them."""
    found = {}
    for name, path in DEV_SETS.items():
        cases = load_cases(path)
        diagnoses, _ = set_diagnoses(path, cases, {})
        rows = []
        with tempfile.TemporaryDirectory() as tmp, open_sqlite_store(Path(tmp) / "m.sqlite", embeddings) as store:
            memory = FixMemory(store)
            causes = record_diagnoses(cases)
            stored = {r.id: store_case_record(memory, r, causes.get(r.id)) for r in cases.records}
            for q in cases.queries:
                searches = {}
                with left_out(memory, [stored[r] for r in q.exclude]):
                    for kind, text in (("first", symptom_query(parse_failure(q.failure))), ("diagnosis", diagnoses.get(q.id))):
                        if text:
                            # The product's vector query: a diagnosis without the project's names.
                            searched = mechanism_text(text) if kind == "diagnosis" else text
                            items = store.search(memory.namespace, query=searched, limit=CANDIDATE_POOL)
                            if kind == "first":  # the project's fixes of other tests are left out (recurrence.py)
                                failing = failing_test_names(text)
                                items = [i for i in items if not another_bug_of_the_project(i.value, q.project, failing)]
                            searches[kind] = (text, [{"id": i.value["session_id"], "cosine": float(i.score),
                                                      "symptom": lexical_text(i.value, "symptom"),
                                                      "cause": lexical_text(i.value, "cause")} for i in items])
                rows.append((q.relevant, searches))
        found[name] = rows
    return found


def ranked(text: str, cands: list[dict], weight, lexical: str) -> list[tuple[str, float, float, int, int]]:
    """(id, fused, cosine, vector rank, lexical rank), best first; ``weight="rrf"``: rank fusion."""
    cos = [c["cosine"] for c in cands]
    lex = bm25_scores(text, [c[lexical] for c in cands])
    lex_rank = {i: r for r, i in enumerate(sorted(range(len(cands)), key=lambda i: -lex[i]))}
    if weight == "rrf":
        order = reciprocal_rank_fusion([range(len(cands)), sorted(range(len(cands)), key=lambda i: -lex[i])])
        fused = cos
    else:
        best = max(lex, default=0.0) or 1.0
        fused = [weight * c + (1 - weight) * x / best for c, x in zip(cos, lex, strict=True)]
        order = sorted(range(len(cands)), key=lambda i: -fused[i])
    return [(cands[i]["id"], fused[i], cos[i], i, lex_rank[i]) for i in order]


def shown(rows, floor, margin, agree) -> list[str]:
    top = [r for r in rows[:3] if r[2] >= 0.15]
    if agree:
        return [r[0] for r in top if r[3] < 3 and r[4] < 3]
    top = [r for r in top if r[1] >= floor]
    best = max((r[1] for r in top), default=0.0)
    return [r[0] for r in top if r[1] >= best - margin]


def ranking_table(data) -> None:
    print("ranking: recall@1 / recall@3 / MRR@10 (diagnosis: BM25 over the cause)")
    for weight in ["rrf", 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]:
        cells = []
        for name, rows in data.items():
            for kind in ("first", "diagnosis"):
                r1 = r3 = rr = n = 0
                for relevant, searches in rows:
                    if kind in searches:
                        text, cands = searches[kind]
                        ids = [r[0] for r in ranked(text, cands, weight, "symptom" if kind == "first" else "cause")]
                        rank = next((i + 1 for i, x in enumerate(ids) if x in relevant), None)
                        n, r1, r3 = n + 1, r1 + (rank == 1), r3 + (rank is not None and rank <= 3)
                        rr += 1 / rank if rank and rank <= 10 else 0
                cells.append(f"{name} {kind} {r1 / n:.3f}/{r3 / n:.3f}/{rr / n:.3f}")
        print(f"  {weight!s:>4}  " + "  ".join(cells))


def delivered(rows, kind: str, pick) -> str:
    """``recall shown / precision / shown per query`` of one search (``"first"``, ``"diagnosis"``) or of
    the session (``"session"``: either search, a record shown by both counted once) over ``rows``; the
    hits of each search are ``pick(search, (query text, candidates))``."""
    hits = good = found = n = 0
    for relevant, searches in rows:
        kinds = [k for k in ("first", "diagnosis") if k in searches] if kind == "session" else (
            [kind] if kind in searches else [])
        if not kinds:
            continue
        ids = list(dict.fromkeys(i for k in kinds for i in pick(k, searches[k])))
        right = sum(i in relevant for i in ids)
        n, hits, good, found = n + 1, hits + len(ids), good + right, found + (right > 0)
    return f"{found / n:.3f}/{good / hits if hits else 0:.3f}/{hits / n:.2f}"


def delivery_table(data, diagnosis_lexical: str) -> None:
    print(f"delivery: recall shown / precision / shown per query (diagnosis BM25 over: {diagnosis_lexical})")
    rules = [(w, f, m, False) for w, f, m in itertools.product(
        [0.7, 0.8, 0.9], [0.0, 0.3, 0.35, 0.4, 0.45], [0.03, 0.05, 0.1, 0.15, 1.0])]
    rules += [(0.9, 0.0, 1.0, True), ("rrf", 0.0, 1.0, False)]
    for weight, floor, margin, agree in rules:
        def pick(k, search, weight=weight, floor=floor, margin=margin, agree=agree):
            return shown(ranked(*search, weight, "symptom" if k == "first" else diagnosis_lexical), floor, margin, agree)
        cells = [f"{name} {kind[0]} {delivered(rows, kind, pick)}"
                 for name, rows in data.items() for kind in ("first", "diagnosis", "session")]
        label = "agree" if agree else f"w={weight} floor={floor} margin={margin}"
        print(f"  {label:<30}" + "  ".join(cells))


def swept_table(data, swept: str, floors, margins, fixed: tuple[float, float]) -> None:
    """One search's floor and margin swept (weight 0.9, BM25 over the symptom or the cause without
    names), the other search's cut-off held at ``fixed``: that search alone and the session."""
    for floor, margin in itertools.product(floors, margins):
        def pick(k, search, floor=floor, margin=margin):
            return shown(ranked(*search, 0.9, "symptom" if k == "first" else "cause"),
                         *((floor, margin) if k == swept else fixed), False)
        cells = [f"{name} {kind[0]} {delivered(rows, kind, pick)}"
                 for name, rows in data.items() for kind in (swept, "session")]
        print(f"  floor={floor} margin={margin:<{6 if swept == 'diagnosis' else 5}}" + "  ".join(cells))


def diagnosis_delivery_table(data) -> None:
    """The first search as shipped (0.9, floor 0.35, margin 0.05); the diagnosis search's own floor and
    margin swept, since its cosines (a diagnosis against causes without names) have their own scale."""
    print("diagnosis delivery (first search fixed; diagnosis BM25 over: cause): "
          "recall shown / precision / shown per query")
    swept_table(data, "diagnosis", [0.0, 0.3, 0.35, 0.4, 0.45, 0.5], [0.03, 0.05, 0.1, 0.15, 1.0], (0.35, 0.05))


def first_delivery_table(data) -> None:
    """The diagnosis search as shipped (floor 0.30, margin 0.10, BM25 over the cause without names); the first
    search's floor and margin swept: what the session shows with a stricter or looser first search."""
    print("first-search delivery (diagnosis fixed): recall shown / precision / shown per query")
    swept_table(data, "first", [0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 1.1], [0.05, 0.1], (0.30, 0.10))


def main() -> None:
    data = candidates(MiniLMEmbeddings())
    if "--first" in sys.argv:
        first_delivery_table(data)
        return
    if "--diagnosis" in sys.argv:
        diagnosis_delivery_table(data)
        return
    ranking_table(data)
    delivery_table(data, "cause")
    delivery_table(data, "symptom")


if __name__ == "__main__":
    main()

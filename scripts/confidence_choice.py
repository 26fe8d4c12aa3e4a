"""How the cosine a hit without evidence needs (stores/confidence.py ``MIN_COSINE_WITHOUT_EVIDENCE``)
was chosen: on the development data only.

- bench history's development projects: a ``history.json`` written by ``astra-memory bench history``
  (each query's whole product ranking with its cosine, fused score and evidence);
- bench retrieval's development sets (dev, dev-extra): searched here as the bench searches them.

For each candidate value, what a session's first search would show (the product's rule: minimum
cosine, fused floor and margin, top 3, and the evidence gate with that value), and its figures:
precision of the hits shown, how many queries with a relevant fix were shown one, and how many with
nothing relevant were shown nothing. The choice: the value with the most queries answered right
over all these sets together (shown a relevant fix where there is one, nothing where there is none);
a tie goes to the higher value (fewer hits shown).

    .venv/bin/python scripts/confidence_choice.py /tmp/hb-dev/history.json
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from astra_memory.bench.query_cases import DEV_EXTRA_CASES, SHIPPED_CASES, load_cases
from astra_memory.bench.retrieval import SESSION_TOP_K, _product
from astra_memory.context import DEFAULT_MIN_SCORE
from astra_memory.stores.confidence import CHANGED_FUNCTION, SAME_FUNCTION, SAME_TEST
from astra_memory.stores.embeddings import make_embeddings
from astra_memory.stores.hybrid import FUSED_FLOOR, deliverable

VALUES = (0.0, 0.40, 0.45, 0.50, 0.52, 0.55, 0.58, 0.60, 0.65)
OWN = (SAME_TEST, SAME_FUNCTION, CHANGED_FUNCTION)  # the project's own evidence: not a cosine


def shown(scored: list[dict], value: float) -> list[str]:
    allowed = [s["evidence"] in OWN or s["cosine"] >= value for s in scored]
    keep = deliverable([s["cosine"] for s in scored], DEFAULT_MIN_SCORE, SESSION_TOP_K,
                       fused=[s["fused"] for s in scored], floor=FUSED_FLOOR, allowed=allowed)
    return [scored[i]["id"] for i in keep]


def figures(rows: list[tuple[list[dict], list[str]]], value: float) -> tuple[str, int]:
    """rows: (the scored ranking, the relevant ids) per query; the figures, and the queries answered right."""
    hits = good = found = abstained = 0
    with_rel = sum(bool(rel) for _, rel in rows)
    for scored, relevant in rows:
        ids = shown(scored, value)
        hits += len(ids)
        good += sum(i in relevant for i in ids)
        found += bool(relevant) and any(i in relevant for i in ids)
        abstained += not relevant and not ids
    precision = f"{good / hits:.2f}" if hits else "-"
    return (f"prec {precision} ({good}/{hits}), shown a relevant {found}/{with_rel}, "
            f"abstained {abstained}/{len(rows) - with_rel}", found + abstained)


def retrieval_rows(path: Path, embeddings) -> list[tuple[list[dict], list[str]]]:
    class Quiet:
        def advance(self, task):
            pass

    cases = load_cases(path)
    with tempfile.TemporaryDirectory() as folder:
        rankings, _, _ = _product(cases, embeddings, Path(folder), Quiet(), None, {})
    rows = []
    for q in cases.queries:
        r = rankings["product"][q.id]
        rows.append(([{"id": i, "cosine": c, "fused": f, "evidence": e}
                      for i, c, f, e in zip(r.ids, r.scores, r.fused, r.evidence, strict=True)], list(q.relevant)))
    return rows


def main(history_json: str) -> None:
    import json

    data = json.loads(Path(history_json).read_text(encoding="utf-8"))
    sets = {"history " + ",".join(data["projects"]): [(q["product_scores"], q["relevant"]) for q in data["queries"]]}
    embeddings = make_embeddings("minilm")
    for name, path in (("retrieval dev", SHIPPED_CASES), ("retrieval dev-extra", DEV_EXTRA_CASES)):
        sets[name] = retrieval_rows(path, embeddings)
    right = {}
    for value in VALUES:
        print(f"min cosine without evidence {value:.2f}")
        right[value] = 0
        for name, rows in sets.items():
            text, count = figures(rows, value)
            right[value] += count
            print(f"  {name}: {text}")
        print(f"  answered right, all sets: {right[value]} of {sum(len(rows) for rows in sets.values())}")
    best = max(VALUES, key=lambda v: (right[v], v))
    print(f"chosen: {best:.2f} (offset {best - FUSED_FLOOR:+.2f} over the fused floor {FUSED_FLOOR})")


if __name__ == "__main__":
    main(sys.argv[1])

"""How the evidence gate's two cosine bars (stores/confidence.py) were chosen: on the development data only.

- ``MIN_COSINE_WITHOUT_EVIDENCE``: the cosine a hit without evidence needs;
- ``OTHER_PROJECT_OFFSET``: what another project's fix needs on top of that where the query's project
  has fixes of its own in memory.

The data:

- bench history's development projects: a ``history.json`` written by ``astra-memory bench history``
  **with the one-bar rule** (main before this choice: its ranking is the fused order, so another
  project's fix that could be shown is among the 10 ranks a history.json keeps; under the strength
  order it may sit below 10 of the project's own and be missed here); each query's product ranking
  with its cosine, fused score and evidence, re-ranked here by strength as the product ranks; a record's project is
  read from the query rows, every stored fix being some measured project's query; "this project has
  fixes of its own" = an earlier fix of the project was stored: the product asks its candidate pool, 40
  records, which on this bench's memory of at most 45 fixes is nearly all of it);
- bench retrieval's development sets (dev, dev-extra): searched here as the bench searches them (a
  query's own project has records in memory when a record of that project is not left out for it).

For each pair of values, what a session's first search would show (the product's rule: minimum
cosine, fused floor and margin, top 3, and the evidence gate with those bars), and its figures:
precision of the hits shown, how many queries with a relevant fix were shown one, and how many with
nothing relevant were shown nothing. The choice (issue 35 item 3: more precision and abstention on
real histories, no loss on the cross-library sets): among the pairs that lose nothing on bench
retrieval's dev and dev-extra sets against the rule before it (``BEFORE``: 0.50, no other-project
offset; neither fewer queries shown a relevant fix nor a lower precision), the one answering the most
history queries right (shown a relevant fix where there is one, nothing where there is none); then
the higher history precision; then the lower bar for another project's fix (the cross-library sets'
relevant fixes are other projects'). Each pair's count over all sets together is printed too (the
criterion of the first choice, docs/results.md "Hits that explain themselves, or none").

    .venv/bin/python scripts/confidence_choice.py /tmp/hb-before/history.json  # bench history run on main at 0f39071
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
OTHER_OFFSETS = (0.0, 0.05, 0.10, 0.15, 0.20, 0.25, float("inf"))
OWN = (SAME_TEST, SAME_FUNCTION, CHANGED_FUNCTION)  # the project's own evidence: not a cosine
BEFORE = (0.50, 0.0)  # the rule this choice was made against: one bar, 0.50 (main at 0f39071)


def shown(scored: list[dict], value: float, other: float = 0.0, has_own: bool = False) -> list[str]:
    """``scored``: the ranking, each hit with ``own`` (the query's project's fix) among its fields; where the
    project has fixes of its own, ranked by strength first as the product ranks (stores/confidence.py)."""
    if has_own:
        scored = sorted(scored, key=lambda s: 0 if s["evidence"] in OWN else 1 if s["own"] else 2)
    allowed = [s["evidence"] in OWN or s["cosine"] >= value + (other if has_own and not s["own"] else 0.0)
               for s in scored]
    keep = deliverable([s["cosine"] for s in scored], DEFAULT_MIN_SCORE, SESSION_TOP_K,
                       fused=[s["fused"] for s in scored], floor=FUSED_FLOOR, allowed=allowed)
    return [scored[i]["id"] for i in keep]


def figures(rows: list[tuple[list[dict], list[str], bool]], value: float,
            other: float) -> tuple[str, int, float, int]:
    """rows: (the scored ranking, the relevant ids, the project has fixes of its own in memory) per query;
    the figures, the queries answered right, the precision of the hits shown, the queries shown a relevant fix."""
    hits = good = found = abstained = 0
    with_rel = sum(bool(rel) for _, rel, _ in rows)
    for scored, relevant, has_own in rows:
        ids = shown(scored, value, other, has_own)
        hits += len(ids)
        good += sum(i in relevant for i in ids)
        found += bool(relevant) and any(i in relevant for i in ids)
        abstained += not relevant and not ids
    precision = f"{good / hits:.2f}" if hits else "-"
    return (f"prec {precision} ({good}/{hits}), shown a relevant {found}/{with_rel}, "
            f"abstained {abstained}/{len(rows) - with_rel}", found + abstained, good / hits if hits else 0.0, found)


def history_rows(data: dict) -> list[tuple[list[dict], list[str], bool]]:
    project = {f"learn-{q['commit']}": q["project"] for q in data["queries"]}
    return [([{**s, "own": project.get(s["id"]) == q["project"]} for s in q["product_scores"]], q["relevant"],
             q["earlier"] > 0) for q in data["queries"]]


def retrieval_rows(path: Path, embeddings) -> list[tuple[list[dict], list[str], bool]]:
    class Quiet:
        def advance(self, task):
            pass

    cases = load_cases(path)
    project = {r.id: r.project for r in cases.records}
    with tempfile.TemporaryDirectory() as folder:
        rankings, _, _ = _product(cases, embeddings, Path(folder), Quiet(), None, {})
    rows = []
    for q in cases.queries:
        r = rankings["product"][q.id]
        has_own = any(p == q.project and i not in q.exclude for i, p in project.items())
        rows.append(([{"id": i, "cosine": c, "fused": f, "evidence": e, "own": project[i] == q.project}
                      for i, c, f, e in zip(r.ids, r.scores, r.fused, r.evidence, strict=True)], list(q.relevant),
                     has_own))
    return rows


def main(history_json: str) -> None:
    import json

    data = json.loads(Path(history_json).read_text(encoding="utf-8"))
    history = "history " + ",".join(data["projects"])
    sets = {history: history_rows(data)}
    embeddings = make_embeddings("minilm")
    for name, path in (("retrieval dev", SHIPPED_CASES), ("retrieval dev-extra", DEV_EXTRA_CASES)):
        sets[name] = retrieval_rows(path, embeddings)
    total = sum(len(rows) for rows in sets.values())
    before = {name: figures(rows, *BEFORE) for name, rows in sets.items() if name != history}
    score = {}
    for value in VALUES:
        for other in OTHER_OFFSETS:
            print(f"min cosine without evidence {value:.2f}, another project's fix where the project has its own "
                  f"{value + other:.2f}")
            right, kept = 0, True
            for name, rows in sets.items():
                text, count, precision, found = figures(rows, value, other)
                right += count
                if name == history:
                    mine = (count, precision)
                else:  # nothing lost on the cross-library development sets against BEFORE
                    kept = kept and found >= before[name][3] and precision >= before[name][2]
                print(f"  {name}: {text}")
            print(f"  answered right, all sets: {right} of {total}" + ("" if kept else "; loses on retrieval"))
            if kept:
                score[value, other] = (*mine, -(value + other))
    value, other = max(score, key=score.get)
    print(f"chosen: {value:.2f} (offset {value - FUSED_FLOOR:+.2f} over the fused floor {FUSED_FLOOR}), "
          f"another project's fix where the project has its own: offset {other:+.2f} more ({value + other:.2f})")

if __name__ == "__main__":
    main(sys.argv[1])

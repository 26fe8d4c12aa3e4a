"""What each retrieval change did, on every case set: an in-memory mirror of the product's ranking
(the same parse_failure/symptom_query, packaged MiniLM, candidate pool, BM25 and RRF as
FixMemory.search_codebase_memory; no SQLite) run with each variant of the query and record text.

    .venv/bin/python scripts/retrieval_ablation.py            # prints recall@1 / recall@3 / MRR@10
    .venv/bin/python scripts/retrieval_ablation.py --with-blind-2   # also the second blind set

The second blind set (evals/blind2) is left out unless asked for: it is the set no retrieval change
has been tuned on, so variants are compared without it and it is read once, at the end.

The "before" rows use symptoms.py as it was before issue 13 (read from git, commit 69fab41).
Rankings agree with `astra-memory bench retrieval` to within one query per set (ties).
"""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from astra_memory.bench.query_cases import default_case_sets, load_cases  # noqa: E402
from astra_memory.stores.embeddings import MiniLMEmbeddings  # noqa: E402
from astra_memory.stores.hybrid import (  # noqa: E402
    CANDIDATE_POOL,
    bm25_order,
    reciprocal_rank_fusion,
)
from astra_memory.testrun import symptoms as S  # noqa: E402

BEFORE = "69fab41"
_cache: dict[str, np.ndarray] = {}
_model = MiniLMEmbeddings()


def embed(texts: list[str]) -> np.ndarray:
    new = [t for t in dict.fromkeys(texts) if t not in _cache]
    for i in range(0, len(new), 64):
        for text, vector in zip(new[i:i + 64], _model.embed_documents(new[i:i + 64]), strict=True):
            _cache[text] = np.asarray(vector, dtype=np.float32)
    return np.stack([_cache[t] for t in texts])


def old_symptoms() -> types.ModuleType:
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{BEFORE}:astra_memory/testrun/symptoms.py"],
                            check=True, capture_output=True, text=True).stdout
    module = types.ModuleType("old_symptoms")
    sys.modules["old_symptoms"] = module  # dataclasses look their module up
    exec(compile(source, "old_symptoms.py", "exec"), module.__dict__)  # our own file from git history
    return module


def case_sets() -> dict:
    sets = default_case_sets()
    return sets if "--with-blind-2" in sys.argv else {k: v for k, v in sets.items() if k != "blind-2"}


def run(name, record_texts, query_text, fuse=True, bm25_text=None) -> None:
    cells = []
    for set_name, path in case_sets().items():
        cases = load_cases(path)
        ids = [r.id for r in cases.records]
        texts = [record_texts(r) for r in cases.records]
        flat = [t for ts in texts for t in ts]
        owner = np.repeat(np.arange(len(ids)), [len(ts) for ts in texts])
        matrix = embed(flat)
        queries = [query_text(q) for q in cases.queries]
        qv = embed(queries)
        ranks = []
        for qi, q in enumerate(cases.queries):
            sims = matrix @ qv[qi]
            score = np.full(len(ids), -9.0)
            for j, o in enumerate(owner):
                score[o] = max(score[o], sims[j])  # a record indexed by several texts: its best one
            order = sorted((i for i in range(len(ids)) if ids[i] not in q.exclude), key=lambda i: -score[i])
            order = order[:CANDIDATE_POOL]
            if fuse:
                lexical = bm25_order(queries[qi], [(bm25_text or (lambda r, ts: ts[0]))(cases.records[i], texts[i])
                                                   for i in order])
                order = [order[i] for i in reciprocal_rank_fusion([range(len(order)), lexical])]
            ranks.append(next((p for p, i in enumerate(order, 1) if ids[i] in q.relevant), None))
        n = len(ranks)
        r1 = sum(r == 1 for r in ranks) / n
        r3 = sum(r is not None and r <= 3 for r in ranks) / n
        mrr = sum(1 / r for r in ranks if r is not None and r <= 10) / n
        cells.append(f"{set_name} {r1:.3f}/{r3:.3f}/{mrr:.3f}")
    print(f"{name:58s} " + "  ".join(cells), flush=True)


def main() -> None:
    old = old_symptoms()
    old_q = lambda text: old.symptom_query(old.parse_failure(text))  # noqa: E731
    new_q = lambda text: S.symptom_query(S.parse_failure(text))  # noqa: E731

    def query_with(text, values=True, frames=True, differences=True):
        failure = S.parse_failure(text)
        lines = S.symptom_query(failure).splitlines()
        drop = (() if values else ("compared: ",)) + (() if frames else ("in: ",)) + \
            (() if differences else ("values ",))
        return "\n".join(ln for ln in lines if not ln.startswith(drop))

    def diff_lines(diff):
        return " ".join(ln[1:] for ln in diff.splitlines() if ln[:1] in "+-" and not ln.startswith(("+++", "---")))

    record = lambda q: lambda r: [f"{q(r.failure)}\nFix: {r.fix}"]  # noqa: E731
    run("before: old symptoms, vector + BM25", record(old_q), lambda q: old_q(q.failure))
    run("before: old symptoms, vector only", record(old_q), lambda q: old_q(q.failure), fuse=False)
    for label, kw in (("clean extraction only", dict(values=False, frames=False, differences=False)),
                      ("+ compared values", dict(frames=False, differences=False)),
                      ("+ compared values + project frames", dict(differences=False)),
                      ("+ difference words (= product)", {})):
        q = lambda text, kw=kw: query_with(text, **kw)  # noqa: E731
        run(label, record(q), lambda qq, q=q: q(qq.failure))
    run("product, vector only", record(new_q), lambda q: new_q(q.failure), fuse=False)
    # Tried, not kept:
    run("not kept: several texts per record (sym+fix, sym, fix), best",
        lambda r: [f"{new_q(r.failure)}\nFix: {r.fix}", new_q(r.failure), r.fix], lambda q: new_q(q.failure))
    run("not kept: fix first in the embedded text", lambda r: [f"Fix: {r.fix}\n{new_q(r.failure)}"],
        lambda q: new_q(q.failure), bm25_text=lambda r, ts: f"{new_q(r.failure)}\nFix: {r.fix}")
    run("not kept: changed diff lines in the embedded text",
        lambda r: [f"{new_q(r.failure)}\nFix: {r.fix}\nChanged: {diff_lines(r.diff)}"], lambda q: new_q(q.failure))
    run("not kept: BM25 text includes the diff", record(new_q), lambda q: new_q(q.failure),
        bm25_text=lambda r, ts: ts[0] + "\n" + diff_lines(r.diff))
    # Tried in the session of the second blind set (measured without it), not kept:
    parts = ("values ", "in: ", "compared: ", "failing tests: ", "failing code: ")

    def reordered(text):  # the general words first: MiniLM reads 256 tokens, the tail may be cut
        lines = new_q(text).splitlines()
        rank = lambda ln: next((i for i, p in enumerate(parts) if ln.startswith(p)), -1)  # noqa: E731
        return "\n".join(sorted(lines, key=rank))

    def no_error_type(text):  # the same cause shows as different error types in different projects
        return "\n".join(ln.split(": ", 1)[1] if not ln.startswith(parts) and ": " in ln
                         and ln.split(": ", 1)[0].endswith(("Error", "Exception", "Iteration")) else ln
                         for ln in new_q(text).splitlines())

    run("not kept: difference words and frames first", record(reordered), lambda q: reordered(q.failure))
    run("not kept: no error type in the query or record head", record(no_error_type),
        lambda q: no_error_type(q.failure))


if __name__ == "__main__":
    main()

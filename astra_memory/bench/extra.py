"""The bench's own packages are an extra (`pip install "astra-codebase-memory[bench]"`): ask for it by
name when it is missing, before a bench does any work."""

from __future__ import annotations

import importlib.util

from astra_memory.errors import ConfigurationError

EXTRA = 'pip install "astra-codebase-memory[bench]"'
# import name -> distribution, for what the benches import (BM25 baseline, the plots).
BENCH_MODULES = {"langchain_community": "langchain-community", "matplotlib": "matplotlib"}


def require_bench_extra(*modules: str) -> None:
    """Raise a ConfigurationError naming the extra when any of ``modules`` (default: all) is not installed."""
    missing = [BENCH_MODULES[m] for m in (modules or BENCH_MODULES) if importlib.util.find_spec(m) is None]
    if missing:
        raise ConfigurationError(f"the benchmarks need {', '.join(missing)}, which is not installed: {EXTRA}")

"""Every module of the package imports on its own, whichever is imported first (no import cycles)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

# One interpreter; before each module, every astra_memory module is dropped from sys.modules, so
# each import below is that module's first import in the process (third-party modules stay cached).
SCRIPT = r"""
import importlib, pkgutil, sys, traceback
import astra_memory
names = sorted(m.name for m in pkgutil.walk_packages(astra_memory.__path__, "astra_memory.")
               if not m.name.endswith("__main__"))  # __main__ runs the CLI
failed = []
for name in names:
    for loaded in [m for m in sys.modules if m == "astra_memory" or m.startswith("astra_memory.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except ImportError as exc:
        if "actian" in name and "vectorai" in str(exc):
            continue  # the optional extra is not installed
        failed.append(f"{name}: {traceback.format_exc(limit=-2)}")
print(len(names), "modules")
print("\n".join(failed))
sys.exit(1 if failed else 0)
"""


def test_each_module_imports_first_without_a_cycle():
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert int(result.stdout.split()[0]) > 40


def test_the_memory_commands_do_not_load_the_graph():
    """`memory search` opens only the store (astra_memory/backends/memory_only.py): the graph, the nodes and the
    model client stay unimported (they cost a cold start time it never uses)."""
    probe = ("import sys, astra_memory.cli.app, astra_memory.backends.memory_only; "
             "print(sorted(m for m in ('langgraph.graph', 'astra_memory.graph', 'astra_memory.nodes', "
             "'astra_memory.session.run', 'langchain_openai', 'sentence_transformers', 'torch') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_cli_starts_without_the_secret_scanner_or_the_store():
    """Importing the CLI (all that `--help`, `prices` or a usage error need) loads neither detect-secrets
    (with ``requests``: the modules that scrub load it, the session's before its header line) nor
    LangGraph's store and langchain-core (``stores/__init__.py`` re-exports nothing): each start of the
    command paid for both."""
    probe = ("import sys, astra_memory.cli.app; print(sorted(m for m in ('detect_secrets', 'requests', "
             "'langgraph.store.base', 'langchain_core', 'astra_memory.stores.memory') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"

#!/usr/bin/env bash
# Create .venv (or $ASTRA_VENV) and install the pinned dependencies and this package.
# Safe to re-run: an existing venv is reused and pip skips what is already installed.
# `--torch` adds the `torch` extra (requirements-torch.txt: PyTorch, for the ONNX export and the reference
# embeddings of tests and benches; scripts/test.sh passes it). Without it nothing installs PyTorch.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${ASTRA_VENV:-.venv}"
PY="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
  echo "setup: creating $VENV" >&2
  "$PY" -m venv "$VENV"
fi
PIP=("$VENV/bin/python" -m pip install --quiet --disable-pip-version-check)
"${PIP[@]}" --upgrade pip
# pip byte-compiles what it installs on one core (about two thirds of its CPU time here); --no-compile, then one
# compileall across the cores below.
PIP+=(--no-compile)
WANT=(-r requirements.txt)
if [ "${1:-}" = "--torch" ]; then
  # torch pinned (requirements-torch.txt pins it too): this is the local CPU build (2.13.0+cpu, which pip prefers
  # to the index's 2.13.0); an unpinned torch would pull a CUDA build of several GB. One pip run resolves all.
  WANT+=(torch==2.13.0 -r requirements-torch.txt)
fi
"${PIP[@]}" "${WANT[@]}"
"${PIP[@]}" --no-deps -e .
# Byte-compile the dependencies and the package (an editable install is never compiled by pip): where
# PYTHONDONTWRITEBYTECODE is set, every process would compile each module it imports again (about 0.14 s of
# `threads`' 1.2 s). Up-to-date files are only checked (a few seconds on a re-run). pip's own compile step skips
# a file that does not compile, and so does this one. Not the bundled scenarios' projects: those are copied and
# edited, never imported from here. Not the `torch` extra's large trees either (PyTorch, transformers,
# sentence-transformers, onnx and what only they need: sympy, scipy, scikit-learn, networkx, mpmath), nor
# langchain-community (the benches' BM25 baseline): the agent's commands (run, resume, memory, learn, mcp, demo)
# import none of them; the tests and benches import about 2,500 of their 12,400 files, compiled as they are
# imported (scripts/test.sh lets Python write them). Compiling everything took 73 CPU-s on a fresh venv, this 32 (2026-12-08, loaded machine).
SITE="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
EXTRA_ONLY='/(torch|torchgen|functorch|transformers|sentence_transformers|onnx|sympy|scipy|sklearn|networkx|mpmath|langchain_community|langchain_classic)/'
"$VENV/bin/python" -m compileall -qq -j 0 -x "/site-packages$EXTRA_ONLY" "$SITE" || true
"$VENV/bin/python" -m compileall -q -j 0 -x 'astra_memory/scenarios/bundled/' astra_memory
"$VENV/bin/python" - <<'PY'
import sys
from astra_memory.backends.sqlite.store import sqlite_module
mod = sqlite_module()
conn = mod.connect(":memory:")
conn.enable_load_extension(True)
import sqlite_vec
sqlite_vec.load(conn)
print(f"setup: ok ({sys.executable}; sqlite {mod.sqlite_version} via {mod.__name__}, "
      f"sqlite-vec {conn.execute('select vec_version()').fetchone()[0]})", file=sys.stderr)
PY

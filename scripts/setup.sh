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
# a file that does not compile, and so does this one: torch ships one written for Python 3.12
# (torch/testing/_internal/py312_intrinsics.py). Not the bundled scenarios' projects: those are copied and edited,
# never imported from here.
SITE="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
"$VENV/bin/python" -m compileall -qq -j 0 "$SITE" || true
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

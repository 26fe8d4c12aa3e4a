#!/usr/bin/env bash
# Set everything up, lint (ruff), then run the whole test suite (no network), one pytest-xdist worker per core and
# one more (ASTRA_TEST_WORKERS=N sets the number; 0 runs it in one process): the tests wait on their subprocesses
# and servers part of the time, and a third worker on 2 cores took 566 s where two took 598 s (same clone, back to
# back, quiet machine). --dist loadfile keeps a file's tests on one worker,
# so a module's servers and fixtures start once; each worker has its own PostgreSQL (tests/pg.py).
# --no-loadscope-reorder keeps tests/conftest.py's order (longest files first) instead of most tests first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --torch  # the tests compare the shipped ONNX model with PyTorch's vectors
VENV="${ASTRA_VENV:-.venv}"
# Lint first (rules in pyproject.toml [tool.ruff.lint]; ruff is pinned in requirements.txt): a finding fails the suite.
"$VENV/bin/python" -m ruff check .
# Python writes the bytecode of what the tests import (setup.sh compiles the product's dependencies, not the torch
# extra's large trees): where the shell sets PYTHONDONTWRITEBYTECODE, each of the suite's processes that imports
# PyTorch or transformers would compile them again.
unset PYTHONDONTWRITEBYTECODE
set +e
WORKERS="${ASTRA_TEST_WORKERS:-$("$VENV/bin/python" -c 'import os; print((os.cpu_count() or 1) + 1)')}"
"$VENV/bin/python" -m pytest -q -n "$WORKERS" --dist loadfile --no-loadscope-reorder "$@"
code=$?
set -e
if [ "$code" -eq 5 ]; then
  echo "test.sh: pytest collected no tests (exit 5): the suite is missing, which is a failure here" >&2
  exit 1
fi
exit "$code"

#!/usr/bin/env bash
# Set everything up, then run the whole test suite (no network, a few minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
VENV="${ASTRA_VENV:-.venv}"
set +e
"$VENV/bin/python" -m pytest -q "$@"
code=$?
set -e
if [ "$code" -eq 5 ]; then
  echo "test.sh: pytest collected no tests (exit 5): the suite is missing, which is a failure here" >&2
  exit 1
fi
exit "$code"

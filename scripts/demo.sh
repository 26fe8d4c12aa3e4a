#!/usr/bin/env bash
# Set everything up, then run the main job: the memory demo (alpha, beta, alpha again by replay).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
VENV="${ASTRA_VENV:-.venv}"
exec "$VENV/bin/astra-memory" demo "$@"

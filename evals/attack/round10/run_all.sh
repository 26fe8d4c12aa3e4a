#!/bin/bash
# Runs every case, one after another; prints each verdict line. One case: .venv/bin/python evals/attack/round10/cases/NN_*/run.py
cd "$(dirname "$0")"
for d in cases/*/; do
  printf '%s: ' "$(basename "$d")"
  timeout 600 ../../../.venv/bin/python "$d/run.py" 2>/dev/null | grep -E '^(BROKEN|HELD):' | tail -1
done

#!/bin/bash
# Runs every case; prints each verdict line. Each case: .venv/bin/python evals/attack/round4/cases/NN_*/run.py
cd "$(dirname "$0")"
for d in cases/*/; do
  printf '%s: ' "$(basename "$d")"
  timeout 400 ../../../.venv/bin/python "$d/run.py" 2>&1 | grep -E '^(BROKEN|HELD):' | tail -1
done

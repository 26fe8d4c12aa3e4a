"""The full jittered crash matrix (issue 32, item 6): every progress line of a two-attempt session
killed ``--per-line`` times at seeded 0-300 ms delays, plus kills inside checkpoint writes, each
resumed in a new process and compared with an uncrashed run (astra_memory/jittered_kills.py).

    .venv/bin/python scripts/crash_matrix.py                        # SQLite: 3 per line
    .venv/bin/python scripts/crash_matrix.py --backend postgres --per-line 1 --inside 2

Prints one row per node (kills landed/planned, fixed, exactly one record, resumes run/that ran
work, failures) and exits 1 if any session did not end as the uncrashed one did. PostgreSQL runs on
the test suite's own server (tests/pg.py), a fresh schema per session.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from astra_memory.jittered_kills import (  # noqa: E402
    checkpoint_counts, line_kills, point_kills, run_kill, run_matrix, table, two_attempt_scenario)

SECRET_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ASTRA_MODEL", "ASTRA_DATABASE_URL", "ASTRA_CRASH_AT",
               "ASTRA_HOLD_AT", "ASTRA_MIN_SCORE", "ASTRA_MIN_FUSED_SCORE")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--per-line", type=int, default=3, help="kills after each progress line")
    parser.add_argument("--inside", type=int, default=4, help="kills inside checkpoint writes, and inside node writes")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in SECRET_VARS}
    server = holder = None
    if args.backend == "postgres":
        from tests.pg import ServerHolder

        holder = ServerHolder()
        server = holder.ensure_alive()
    rng = random.Random(args.seed)
    started = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="crash-matrix-") as tmp:
            base = Path(tmp)
            scenario = two_attempt_scenario(base / "scenario")
            url = server.new_database() if server else None
            run_kill(None, scenario, base / "probe", env, url)  # how many checkpoint writes a session makes
            puts, writes = checkpoint_counts(base / "probe", url)
            kills = line_kills(rng, args.per_line) + point_kills(rng, args.inside, puts, writes)
            reference, outcomes = run_matrix(kills, scenario, base / "runs", env, workers=args.workers,
                                             new_url=server.new_database if server else None)
    finally:
        if holder is not None:
            holder.stop()
    print(f"seed {args.seed}, {len(kills)} kills, {puts} checkpoints and {writes} node writes per session, "
          f"{time.monotonic() - started:.0f} s")
    print(table(outcomes, reference, args.backend))
    bad = [o for o in [reference, *outcomes] if o.failures(reference) and o is not reference] + (
        [reference] if reference.errors or reference.status != "fixed" else [])
    print(f"{len(bad)} of {len(outcomes)} sessions did not end as the uncrashed run did")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

"""The full jittered crash matrix (issue 32, item 6): every progress line of a two-attempt session
killed at seeded 0-300 ms delays
(``--per-node`` times per node, after any of its lines; or ``--per-line`` times after every line), plus kills inside checkpoint writes, each
resumed in a new process and compared with an uncrashed run (astra_memory/jittered_kills.py).

    .venv/bin/python scripts/crash_matrix.py                        # SQLite: 3 per node
    .venv/bin/python scripts/crash_matrix.py --per-line 3           # SQLite: 3 after every line
    .venv/bin/python scripts/crash_matrix.py --backend postgres --per-node 1 --inside 1

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
    Outcome,
    checkpoint_counts,
    line_kills,
    node_kills,
    point_kills,
    run_kill,
    run_matrix,
    table,
    two_attempt_scenario,
)

SECRET_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ASTRA_MODEL", "ASTRA_DATABASE_URL", "ASTRA_CRASH_AT",
               "ASTRA_HOLD_AT", "ASTRA_MIN_SCORE", "ASTRA_MIN_FUSED_SCORE")


def _said(outcome: Outcome) -> None:
    """One line per session as it ends (a long matrix shows its progress)."""
    print(f"  {outcome.kill.name:<28} landed={outcome.landed} status={outcome.status} records={len(outcome.records)} "
          f"resumes={outcome.resumes} {'; '.join(outcome.errors)[:200]}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--per-node", type=int, default=3, help="kills per node, after any of its lines")
    parser.add_argument("--per-line", type=int, default=0, help="kills after every progress line instead")
    parser.add_argument("--inside", type=int, default=2, help="kills inside checkpoint writes, and inside node writes")
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
            reference = run_kill(None, scenario, base / "reference", env, url)
            puts, writes = checkpoint_counts(base / "reference", url)  # where a kill inside a write can land
            kills = (line_kills(rng, args.per_line) if args.per_line else node_kills(rng, args.per_node)
                     ) + point_kills(rng, args.inside, puts, writes)
            print(f"{len(kills)} kills planned", flush=True)
            _, outcomes = run_matrix(kills, scenario, base / "runs", env, workers=args.workers, reference=reference,
                                     new_url=server.new_database if server else None, on_outcome=_said)
    finally:
        if holder is not None:
            holder.stop()
    print(f"seed {args.seed}, {len(kills)} kills, {puts} checkpoints and {writes} node writes per session, "
          f"{time.monotonic() - started:.0f} s")
    print(table(outcomes, reference, args.backend))
    bad = [o for o in outcomes if o.failures(reference)]
    if reference.errors or reference.status != "fixed":
        print(f"the uncrashed run did not end fixed: {reference.status} {reference.errors}")
    print(f"{len(bad)} of {len(outcomes)} sessions did not end as the uncrashed run did")
    return 1 if bad or reference.status != "fixed" else 0


if __name__ == "__main__":
    sys.exit(main())

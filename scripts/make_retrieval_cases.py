#!/usr/bin/env python
"""Build the shipped retrieval cases from the bundled scenario corpus.

One record per scenario, from its confirmed fix: the fix text and error type are the scripted
``finish`` arguments, the files and diff come from applying the scripted ``apply_edit`` steps, the
failure text is what the template's tests actually print, the outcome is the exact string of the
passing run after the fix. One query per scenario: its failure text, with ``relevant`` = the
records of the *other* scenarios of the same family and ``exclude`` = its own record (a session
never finds its own future fix). Nothing here looks at retrieval results: the file is a function
of the corpus only.

    .venv/bin/python scripts/make_retrieval_cases.py [--out astra_memory/bench/cases/corpus.jsonl]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from astra_memory.bench.corpus import solve_all  # noqa: E402
from astra_memory.bench.query_cases import SHIPPED_CASES  # noqa: E402
from astra_memory.scenarios import list_scenarios  # noqa: E402
from astra_memory.testrun.symptoms import parse_failure  # noqa: E402

# pytest's closing line ends with the run's duration ("4 failed in 0.14s"); fixing it at 0.00s
# makes the file a function of the corpus alone, not of how fast this machine was today.
_DURATION = re.compile(r" in \d+(?:\.\d+)?s( \(\d+:\d+:\d+\))?(?= =*$|$)", re.M)


# Object reprs carry memory addresses ("<built-in method get of dict object at 0x7f04...>").
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")


def stable(output: str) -> str:
    return _ADDRESS.sub(" at 0x0>", _DURATION.sub(" in 0.00s", output))


def record_id(name: str) -> str:
    return f"r-{name}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=SHIPPED_CASES)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    scenarios = list_scenarios()
    solved = solve_all(scenarios, workers=args.workers)
    broken = [s for s in solved if s.problem or s.before.passed or s.after is None or not s.after.passed]
    for s in broken:
        print(f"{s.scenario.name}: not usable ({s.problem or 'tests do not fail before / pass after the fix'})",
              file=sys.stderr)
    if broken:
        return 1
    by_family: dict[str, list[str]] = defaultdict(list)
    for s in solved:
        by_family[s.scenario.family].append(s.scenario.name)

    lines = []
    for s in solved:
        sc = s.scenario
        lines.append({
            "type": "record", "id": record_id(sc.name), "project": sc.project, "family": sc.family,
            "scenario": sc.name, "failure": stable(s.before.output), "error_type": s.finish["error_type"],
            "files": s.files, "fix": s.finish["fix_description"], "outcome": s.after.outcome, "diff": s.diff,
        })
    for s in solved:
        sc = s.scenario
        relevant = [record_id(n) for n in by_family[sc.family] if n != sc.name]
        if not relevant:
            continue
        lines.append({
            "type": "query", "id": f"q-{sc.name}", "project": sc.project, "family": sc.family, "scenario": sc.name,
            "failure": stable(s.before.output), "error_type": parse_failure(s.before.output).error_type,
            "relevant": relevant, "exclude": [record_id(sc.name)], "cohort": sc.cohort,
        })
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    n_records = sum(1 for x in lines if x["type"] == "record")
    print(f"wrote {n_records} records and {len(lines) - n_records} queries "
          f"({len(by_family)} families) to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

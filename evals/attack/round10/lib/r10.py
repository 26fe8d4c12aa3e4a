"""Shared helpers for the round-10 attack cases: round 6's learn harness (hostile git histories,
`learn`, no-model sessions), round 4's hostile model server, round 9's git helpers, with round 10's own
ATTACK_ROOT. No product source is read."""
import json
import os
import sys

os.environ.setdefault("ATTACK_ROOT", "/tmp/astra-attack10")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "round6", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "round4", "lib"))
import learnharness as lh  # noqa: E402
import harness as h4  # noqa: E402


def log(case, *parts):
    with open(os.path.join(case.dir, "case.log"), "a") as f:
        f.write(" ".join(str(p) for p in parts) + "\n")
    print(*parts)


def learned_rows(data):
    return lh.rows_of(data)


def records(case):
    return lh.Case.records(case) if isinstance(case, lh.Case) else h4.Case.records(case)


def jdump(x, n=500):
    return lh.short(x, n)


def confirmed_rows(data):
    return [r for r in lh.rows_of(data) if str(lh.result_of(r)).startswith("confirm") or lh.result_of(r) == "learned"]


__all__ = ["lh", "h4", "log", "learned_rows", "records", "jdump", "confirmed_rows", "json", "os", "sys"]

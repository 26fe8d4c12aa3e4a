"""Shared helpers for the round-8 attack cases (the `failing test ids:` line, the own pool and the
bars, damaged rows in filtered searches). Built on round 7's harness (evals/attack/round7/lib/r7.py,
itself on round 6's learnharness). Written from README.md and docs/*.md only."""
import json
import os
import sys

os.environ.setdefault("ATTACK_ROOT", "/tmp/astra-attack8")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "round7", "lib"))
from r7 import *  # noqa: F401,F403,E402
from r7 import Case, DATE, ORIGIN, PY, clone_of, run_ws  # noqa: E402


def project(case, rel, origin, first, fixes):
    """A repository with fixed dates: its first commit `first` (files), then one commit per
    (message, files) of `fixes`. Returns the Repo and the fix commits' shas."""
    r = case.repo(rel)
    r.commit("initial import", first, date=DATE)
    r.git("remote", "add", "origin", origin)
    shas = [r.commit(msg, files, date=DATE) for msg, files in fixes]
    return r, shas


def search(case, query, *extra):
    """`memory search QUERY --json ...`: (process, parsed JSON or None)."""
    p = case.astra(["memory", "search", query, "--json"] + list(extra))
    try:
        data = json.loads(p.stdout)
    except Exception:
        data = None
    return p, data


def traceback_in(*procs):
    return any("Traceback" in (p.stdout + p.stderr) for p in procs)





def run_ws_cmd(case, ws, test_cmd, *extra, timeout=170):
    """run_ws with a test command of the case's own (a no-model session: replay or needs_model)."""
    p = case.astra(["run", "--workspace", ws, "--test-command", test_cmd, "--python", PY,
                    "--no-approve-edits", "--json"] + list(extra), timeout=timeout)
    try:
        data = json.loads(p.stdout[p.stdout.index("{"):p.stdout.rindex("}") + 1])
    except Exception:
        data = {}
    return p, data


ALL_CMD = "python -m pytest -q -p no:cacheprovider"
__all__ = [n for n in dir() if not n.startswith("__")]

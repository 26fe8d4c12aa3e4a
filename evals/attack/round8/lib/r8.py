"""Shared helpers for the round-8 attack cases (the `failing test ids:` line, the own pool and the
bars, damaged rows in filtered searches). Built on round 7's harness (evals/attack/round7/lib/r7.py,
itself on round 6's learnharness). Written from README.md and docs/*.md only."""
import json
import os
import sys

os.environ.setdefault("ATTACK_ROOT", "/tmp/astra-attack8")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "round7", "lib"))
from r7 import *  # noqa: F401,F403,E402
from r7 import Case, DATE, ORIGIN, clone_of, run_ws, short, write  # noqa: E402


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
    """round 6's run_ws (a no-model session: replay or needs_model) with a test command of the case's own."""
    import learnharness
    saved, learnharness.TEST_CMD = learnharness.TEST_CMD, test_cmd
    try:
        return learnharness.run_ws(case, ws, *extra, timeout=timeout)
    finally:
        learnharness.TEST_CMD = saved


def same_test_claim(case, repo, origin, tag, calc_src, test_cmd, *extra):
    """A clone of `repo` with calc.py = `calc_src`, a no-model session (`extra` options) and
    `memory search --project` with its query. Returns (status, "same failing test" claimed by the
    session or the search, the search's first `why:` line, a traceback printed)."""
    clone = clone_of(case, repo, "clone-" + tag, origin=origin)
    write(clone, "calc.py", calc_src)
    pr, rep = run_ws_cmd(case, clone, test_cmd, *extra)
    q = rep.get("memory_query") or ""
    s = case.astra(["memory", "search", q or "x", "--project", clone])
    why = [line.strip() for line in s.stdout.splitlines() if "why:" in line]
    same = any("same failing test" in str(h.get("evidence")) for h in rep.get("memory_hits") or []) \
        or "for the same failing test" in s.stdout
    print(tag, pr.returncode, rep.get("status"), "query", repr(q), "hits", short(rep.get("memory_hits"), 600),
          "search", s.stdout[-1500:], s.stderr[-400:])
    return rep.get("status"), same, why[:1], traceback_in(pr, s)


ALL_CMD = "python -m pytest -q -p no:cacheprovider"

Q_ADD = ("AssertionError\nfailing tests: add\nfailing code: assert add(2, 3) == 5\n"
         "compared: assert -1 == 5; where -1 = add(2, 3)\nfailing test ids: tests/test_add.py::test_add")


def plant(case, prefix, key, value_text, vectors_of):
    """A row written into the memory file by hand, with the vectors of record `vectors_of` (so the
    vector search meets it among its first candidates)."""
    case.sql("insert or replace into store(prefix, key, value) values (?, ?, ?)", (prefix, key, value_text))
    for field, emb in case.sql("select field_name, embedding from store_vectors where key=?", (vectors_of,)):
        case.sql("insert or replace into store_vectors(prefix, key, field_name, embedding) values (?, ?, ?, ?)",
                 (prefix, key, field, emb))


def damaged_sweep(case, clone, good_id, bad_ids, outside_filter=()):
    """Every reader of memory on a file with damaged rows: filtered and plain searches, list,
    export, migrate in place, a no-model session. Returns {name: (rc, traceback, all bad ids
    named, good fix found, tail)} and the session's report. `outside_filter`: damaged ids a filter
    on `error_type` == AssertionError does not keep (they need not be said by those searches)."""
    out = {}
    exp = os.path.join(case.dir, "out.jsonl")
    cmds = {
        "search --error-type": ["memory", "search", Q_ADD, "--error-type", "AssertionError"],
        "search --project": ["memory", "search", Q_ADD, "--project", clone],
        "search --error-type --project --json": ["memory", "search", Q_ADD, "--error-type", "AssertionError", "--project", clone, "--json"],
        "search": ["memory", "search", Q_ADD],
        "list --all": ["memory", "list", "--all"],
        "export": ["memory", "export", exp],
        "migrate": ["memory", "migrate"],
        "search --error-type after migrate": ["memory", "search", Q_ADD, "--error-type", "AssertionError"],
    }
    for name, args in cmds.items():
        p = case.astra(args)
        text = p.stdout + p.stderr
        found = good_id in text or (name == "export" and os.path.exists(exp) and good_id in open(exp).read()) or name == "migrate"
        need = [b for b in bad_ids if not ("--error-type" in args and b in outside_filter)]
        out[name] = (p.returncode, "Traceback" in text, all(b in p.stderr for b in need), found,
                     text[-300:].replace("\n", " | "))
        print(name, p.returncode, text[-1500:])
    pr, rep = run_ws(case, clone)
    ev = os.path.join(case.home, "runs", str(rep.get("thread_id") or ""), "events.jsonl")
    evs = open(ev).read() if os.path.exists(ev) else ""
    said = "memory_damaged_skipped" in evs and all(b in evs for b in bad_ids)
    out["session"] = (pr.returncode, "Traceback" in pr.stdout + pr.stderr, said, rep.get("status") == "fixed",
                      f"status {rep.get('status')}; {(pr.stdout + pr.stderr)[-300:]}")
    print("session", pr.returncode, rep.get("status"), (pr.stdout + pr.stderr)[-2000:], "events has damaged:", said)
    return out, rep



SLUG_BAD = "def slugify(s):\n    return s.lower().replace(' ', '_')\n"
SLUG_OK = "def slugify(s):\n    return s.lower().replace(' ', '-')\n"
T_SLUG = "from slug import slugify\n\n\ndef test_slug():\n    assert slugify('A B') == 'a-b'\n"
CALC_MULBUG = "def add(a, b):\n    return a * b\n\n\ndef mul(a, b):\n    return a * b\n"
P_ORIGIN = "https://git.example.com/team/textkit.git"


def textkit(case, rel="textkit"):
    """Project P: add() once returned a * b (fixed: commit A, adds tests/test_add.py), slugify()
    used '_' (fixed: commit B, adds tests/test_slug.py). Returns the Repo and (A, B)."""
    return project(case, rel, P_ORIGIN,
                   {"calc.py": CALC_MULBUG, "slug.py": SLUG_BAD, "tests/test_mul.py": BASE_TESTS},
                   [("Fix add multiplying", {"calc.py": CALC_FIXED, "tests/test_add.py": ADD_TEST}),
                    ("Fix slugify separator", {"slug.py": SLUG_OK, "tests/test_slug.py": T_SLUG})])


__all__ = [n for n in dir() if not n.startswith("__")]

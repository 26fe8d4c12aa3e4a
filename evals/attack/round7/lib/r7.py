"""Shared helpers for the round-7 attack cases (memory import/export, the evidence gate, migrate,
bench history --bundle). Built on round 6's harness (evals/attack/round6/lib/learnharness.py).

Written from README.md and docs/*.md only. Every repository here is built with fixed commit dates,
so the same files give the same root commit and therefore the same project id in every case: a
record learned in one case's home is "this project's" in another's."""
import asyncio
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

os.environ.setdefault("ATTACK_ROOT", "/tmp/astra-attack7")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "round6", "lib"))
from learnharness import *  # noqa: F401,F403,E402
from learnharness import ASTRA, CALC_BUGGY, CALC_FIXED, BASE_TESTS, ADD_TEST, ORIGIN, Case, clone_of  # noqa: E402

DATE = "2026-01-01T00:00:00+00:00"


def det_repo(case, rel="calc", fix_files=None, message="Fix add"):
    """The calc repository with fixed dates: its initial commit (buggy add) and its fix commit."""
    r = case.repo(rel)
    r.commit("initial import", {"calc.py": CALC_BUGGY, "tests/test_mul.py": BASE_TESTS}, date=DATE)
    r.git("remote", "add", "origin", ORIGIN)
    fix = r.commit(message, fix_files or {"calc.py": CALC_FIXED, "tests/test_add.py": ADD_TEST}, date=DATE)
    return r, fix


def export_lines(case, path=None):
    path = path or os.path.join(case.dir, "export.jsonl")
    p = case.astra(["memory", "export", path])
    assert p.returncode == 0, p.stderr
    return [json.loads(x) for x in open(path) if x.strip()]


def learned_template(case):
    """A genuine record: learn the calc fix in a home of its own, export it; return its lines."""
    other = Case(case.name + "-tmpl")
    r, fix = det_repo(other)
    p, data = other.learn(r.root)
    lines = export_lines(other)
    print("template learn rc", p.returncode, "records", len(lines))
    return lines


def learned_row(name):
    """A case whose home holds the calc fix, learned: (case, the store's prefix, the stored value)."""
    case = Case(name)
    r, fix = det_repo(case)
    p, data = case.learn(r.root)
    print("learn", p.returncode, result_of(row_for(data, fix)))
    (prefix, _key, value), = case.sql("select prefix, key, value from store")
    return case, prefix, json.loads(value)


def import_fixing_id(case, records, name="import.jsonl", rounds=4):
    """`memory import` the records; where a line's id is refused, take the id its content gives
    (named by the refusal) and try again. Returns the last CompletedProcess and the records."""
    path = os.path.join(case.dir, name)
    for _ in range(rounds):
        for rec in records:
            if rec.get("kind") != "attempt" and isinstance(rec.get("diff"), str) and "diff_sha256" in rec:
                rec["diff_sha256"] = hashlib.sha256(rec["diff"].encode()).hexdigest()
        with open(path, "w") as f:
            for rec in records:
                f.write(json.dumps(rec) + "\n")
        p = case.astra(["memory", "import", path])
        print("import rc", p.returncode, (p.stdout + p.stderr)[-800:])
        if p.returncode == 0:
            return p, records
        msg = p.stdout + p.stderr
        fixed = False
        for m in re.finditer(r"line (\d+): \S+ \S+ is not this record's id: [^\n]*? gives ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})", msg):
            i = int(m.group(1)) - 1
            if 0 <= i < len(records):
                old = records[i].get("memory_id") or records[i].get("id")
                new = m.group(2)
                if old != new:
                    for k in ("memory_id", "id", "attempt_id"):
                        if k in records[i] and records[i][k] == old:
                            records[i][k] = new
                    fixed = True
        if not fixed:
            return p, records
    return p, records


def mcp_call(case, tool, args, allow=None):
    async def go():
        from mcp import Client, StdioServerParameters
        params = StdioServerParameters(command=ASTRA, args=["mcp", "--allow", allow or case.src],
                                       env=case.env(), cwd=case.dir)
        async with Client(params, read_timeout_seconds=300) as cl:
            res = await cl.call_tool(tool, args)
            return "\n".join(getattr(x, "text", "") for x in res.content), res.structured_content
    return asyncio.run(go())


def bug_clone(case, repo, rel="clone"):
    """A clone of the repository (same project) with the bug back in calc.py."""
    dest = clone_of(case, repo, rel)
    write(dest, "calc.py", CALC_BUGGY)
    return dest


__all__ = [n for n in dir() if not n.startswith("__")]

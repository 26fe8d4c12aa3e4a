"""Shared helpers for the round-6 attack cases against `astra-memory learn` (and `astra-memory mcp`).

Written from README.md and docs/*.md only. A case builds a hostile git repository in a temp folder
under ATTACK_ROOT (default /tmp/astra-attack6) with its own ASTRA_HOME, drives the real CLI (and the
real MCP server through the `mcp` SDK's own Client), and prints `BROKEN: ...` (exit 1) or
`HELD: ...` (exit 0) with the evidence."""
import json
import os
import shlex
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", ".."))
ASTRA = os.environ.get("ASTRA_CLI", os.path.join(REPO, ".venv", "bin", "astra-memory"))
PY = os.environ.get("ASTRA_PYTHON", os.path.join(REPO, ".venv", "bin", "python"))
ROOT = os.environ.get("ATTACK_ROOT", "/tmp/astra-attack6")
ONNX = os.path.join(ROOT, "onnx-cache")
SCRATCH = os.path.join(REPO, "evals", "attack", "round6", ".scratch")  # outside /tmp and the homes
TEST_CMD = "python -m pytest -q -p no:cacheprovider tests"
GIT_ENV = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@a", "GIT_COMMITTER_NAME": "a",
           "GIT_COMMITTER_EMAIL": "a@a", "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent-home"}


def dedent(text):
    return textwrap.dedent(text) if isinstance(text, str) else text


def write(root, path, text, mode=None):
    p = os.path.join(root, path)
    os.makedirs(os.path.dirname(p) or root, exist_ok=True)
    if os.path.islink(p):
        os.unlink(p)
    with open(p, "wb" if isinstance(text, bytes) else "w") as f:
        f.write(dedent(text))
    if mode:
        os.chmod(p, mode)


class Repo:
    """A git repository the case writes history into (its own git, not the product's)."""

    def __init__(self, root):
        self.root = root
        os.makedirs(root, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args, check=True, env=None):
        e = dict(os.environ)
        e.update(GIT_ENV)
        if env:
            e.update(env)
        p = subprocess.run(["git", "-C", self.root] + list(args), capture_output=True, text=True, env=e)
        if check and p.returncode:
            raise RuntimeError(f"git {args}: {p.stderr}")
        return p.stdout.strip()

    def commit(self, message, files=None, delete=(), symlinks=None, date=None):
        for path, text in (files or {}).items():
            write(self.root, path, text)
        for path, target in (symlinks or {}).items():
            p = os.path.join(self.root, path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            if os.path.lexists(p):
                os.unlink(p)
            os.symlink(target, p)
        for path in delete:
            os.unlink(os.path.join(self.root, path))
        self.git("add", "-A")
        env = {}
        if date:
            env = {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
        self.git("commit", "-q", "--allow-empty", "-m", message, env=env)
        return self.git("rev-parse", "HEAD")


class Case:
    def __init__(self, name):
        self.name = name
        os.makedirs(os.path.join(ROOT, "tmp"), exist_ok=True)
        self.dir = tempfile.mkdtemp(prefix=name + "-", dir=os.path.join(ROOT, "tmp"))
        self.home = os.path.join(self.dir, "home")
        self.src = os.path.join(self.dir, "src")
        os.makedirs(self.home)
        os.makedirs(self.src)
        self.log = open(os.path.join(self.dir, "case.log"), "a")

    def repo(self, rel):
        return Repo(os.path.join(self.src, rel))

    def env(self, extra=None):
        e = {
            "PATH": os.path.dirname(PY) + ":/usr/local/bin:/usr/bin:/bin",
            "HOME": os.path.join(self.dir, "userhome"),
            "ASTRA_HOME": self.home,
            "ASTRA_ONNX_CACHE": ONNX,
            "LANG": "C.UTF-8",
            "COLUMNS": "200",
        }
        os.makedirs(e["HOME"], exist_ok=True)
        if extra:
            e.update(extra)
        return e

    def astra(self, args, timeout=170, extra_env=None, cwd=None):
        t = time.time()
        p = subprocess.run([ASTRA] + args, env=self.env(extra_env), capture_output=True, text=True,
                           timeout=timeout, cwd=cwd or self.dir)
        self.log.write(f"$ astra-memory {shlex.join(args)}  ({time.time() - t:.1f}s rc={p.returncode})\n"
                       f"{p.stdout}\n--stderr--\n{p.stderr}\n")
        self.log.flush()
        return p

    def popen(self, args, extra_env=None, cwd=None):
        return subprocess.Popen([ASTRA] + args, env=self.env(extra_env), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=cwd or self.dir, start_new_session=True)

    def learn(self, ws, *extra, timeout=170, extra_env=None, test_command=TEST_CMD):
        args = ["learn", "--workspace", ws, "--python", PY, "--json"]
        if test_command:
            args += ["--test-command", test_command]
        p = self.astra(args + list(extra), timeout=timeout, extra_env=extra_env)
        try:
            data = json.loads(p.stdout)
        except Exception:
            data = None
        return p, data

    def memory_list(self):
        p = self.astra(["memory", "list", "--json", "--all"])
        try:
            return json.loads(p.stdout)
        except Exception:
            return {"raw": p.stdout[-2000:], "err": p.stderr[-2000:], "rc": p.returncode}

    def records(self):
        d = self.memory_list()
        if isinstance(d, dict):
            for k in ("records", "fixes", "items", "memories"):
                if isinstance(d.get(k), list):
                    return d[k]
        return d if isinstance(d, list) else []

    def grep_home(self, needle, skip_copies=False):
        hits = []
        needle = needle.encode() if isinstance(needle, str) else needle
        for dp, dn, fn in os.walk(self.home):
            for f in fn:
                p = os.path.join(dp, f)
                if os.path.islink(p) or not os.path.isfile(p):
                    continue
                try:
                    if needle in open(p, "rb").read():
                        hits.append(os.path.relpath(p, self.home))
                except Exception:
                    pass
        return hits

    def sql(self, query, args=(), db="memory.sqlite"):
        con = sqlite3.connect(os.path.join(self.home, db))
        try:
            cur = con.execute(query, args)
            rows = cur.fetchall()
            con.commit()
            return rows
        finally:
            con.close()


def rows_of(data):
    """The per-commit rows of `learn --json` (whatever the key is called)."""
    if not isinstance(data, dict):
        return []
    for k in ("rows", "commits", "judged", "results"):
        if isinstance(data.get(k), list):
            return data[k]
    return []


def row_for(data, sha):
    for r in rows_of(data):
        c = str(r.get("commit") or r.get("sha") or "")
        if c and (sha.startswith(c) or c.startswith(sha[:8])):
            return r
    return None


def result_of(row):
    if not row:
        return None
    return row.get("result") or row.get("verdict") or row.get("status")


def short(x, n=600):
    s = json.dumps(x, default=str) if not isinstance(x, str) else x
    return s if len(s) <= n else s[:n] + f"...(+{len(s) - n})"


def verdict(broken, evidence):
    print(("BROKEN: " if broken else "HELD: ") + evidence)
    sys.exit(1 if broken else 0)


CALC_BUGGY = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"
CALC_FIXED = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n"
BASE_TESTS = "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n"
ADD_TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_add_zero():\n    assert add(0, 0) == 0\n"


def base_repo(case, rel="calc"):
    """A repository with a buggy add() and a passing test of mul(): the first commit."""
    r = case.repo(rel)
    r.commit("initial import", {"calc.py": CALC_BUGGY, "tests/test_mul.py": BASE_TESTS})
    r.git("remote", "add", "origin", ORIGIN)
    return r


ORIGIN = "https://git.example.com/team/calc.git"


def clone_of(case, repo, rel, origin=ORIGIN):
    """A clone of the repository (the same project: same root commit and origin)."""
    dest = os.path.join(case.src, rel)
    subprocess.run(["git", "clone", "-q", repo.root, dest], check=True, capture_output=True)
    subprocess.run(["git", "-C", dest, "remote", "set-url", "origin", origin], check=True)
    return dest


def run_ws(case, ws, *extra, timeout=170):
    """A session on the workspace with no model (scripted, no script): replay or needs_model."""
    p = case.astra(["run", "--workspace", ws, "--test-command", TEST_CMD, "--python", PY,
                    "--no-approve-edits", "--json"] + list(extra), timeout=timeout)
    try:
        data = json.loads(p.stdout[p.stdout.index("{"):p.stdout.rindex("}") + 1])
    except Exception:
        data = {}
    return p, data

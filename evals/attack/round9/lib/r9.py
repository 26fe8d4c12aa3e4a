"""Shared helpers for the round-9 attack cases: round 4's harness (hostile OpenAI-compatible server,
`run --workspace` on a live wire) and round 6's git helpers, with round 9's own ATTACK_ROOT."""
import os
import sys

os.environ.setdefault("ATTACK_ROOT", "/tmp/astra-attack9")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "round4", "lib"))
from harness import *  # noqa: F401,F403,E402
from harness import Case, ASTRA, PY  # noqa: E402,F401

GIT_ENV = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@a", "GIT_COMMITTER_NAME": "a",
           "GIT_COMMITTER_EMAIL": "a@a", "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent-home",
           "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00"}


def git(root, *args):
    import subprocess
    e = dict(os.environ)
    e.update(GIT_ENV)
    return subprocess.run(["git", "-C", root] + list(args), capture_output=True, text=True, env=e, check=True).stdout


def git_project(case, rel, files, origin="https://git.example.com/team/calc9.git"):
    root = case.project(rel, files)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "init")
    git(root, "remote", "add", "origin", origin)
    return root


def clone(case, src, rel):
    import subprocess
    dest = os.path.join(case.dir, rel)
    subprocess.run(["git", "clone", "-q", src, dest], check=True, capture_output=True)
    url = subprocess.run(["git", "-C", src, "remote", "get-url", "origin"], capture_output=True, text=True).stdout.strip()
    if url:  # the same project: same root commit and origin
        subprocess.run(["git", "-C", dest, "remote", "set-url", "origin", url], check=True)
    return dest


def log(case, *parts):
    with open(os.path.join(case.dir, "case.log"), "a") as f:
        f.write(" ".join(str(p) for p in parts) + "\n")
    print(*parts)


__all__ = [n for n in dir() if not n.startswith("__")]

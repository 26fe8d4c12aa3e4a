"""`bench history --bundle` reads a bundle that came from anywhere (outside round 7 case 10): its
clone must run nothing the bundle or the user's git config names, as learn's git does. A filter
driver named by the bundle's `.gitattributes` and defined in the user's global git config (as
git-lfs is) ran during the bench's `git clone` checkout, which then failed with a traceback."""

from __future__ import annotations

import os
import subprocess

import pytest

from astra_memory.bench.history import HistoryBenchError, clone_bundle
from astra_memory.learn.history import open_repo, walk

GIT = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@a", "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@a",
       "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}


def _git(root, *args):
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env={**os.environ, **GIT})


def test_a_bundles_filter_driver_from_the_users_git_config_never_runs(tmp_path, monkeypatch):
    mark = tmp_path / "filter-ran"
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(f"[filter \"evil\"]\n\tsmudge = sh -c 'touch {mark}; cat'\n"
                                     f"\tprocess = sh -c 'touch {mark}'\n\trequired = true\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / ".gitattributes").write_text("*.py filter=evil\n")
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "start")
    bundle = tmp_path / "hostile.bundle"
    _git(repo, "bundle", "create", str(bundle), "--all")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)

    clone = clone_bundle(bundle, tmp_path / "out" / "hostile")

    assert not mark.exists()
    assert len(walk(clone)) == 1  # the history is all there, read from git's objects
    assert open_repo(clone).head.commit.hexsha


def test_a_bundle_git_cannot_read_is_said_not_a_traceback(tmp_path):
    bad = tmp_path / "bad.bundle"
    bad.write_bytes(b"# v2 git bundle\nnot a bundle\n")
    with pytest.raises(HistoryBenchError, match="bad.bundle"):
        clone_bundle(bad, tmp_path / "out" / "bad")

"""A project is its repository, never its folder name (issue 32 class 6, invariant e;
astra_memory/workspace/identity.py).

Round three: a live model working in an untrusted checkout whose folder was also named ``h3shop``
stored a fix; the user's own ``h3shop``, unattended and with no model, replayed it unasked, because
"confirmed in this project" compared folder names. Here, on SQLite and PostgreSQL, with real git
repositories and whole sessions through the graph:

- two folders of one name holding different repositories do not trust each other's fixes;
- one repository cloned into two folders of different names does;
- a fork (same root commit, another remote) is another project;
- a record stored before ids were kept (none) is another project's fix everywhere;
- a failed attempt in another project of the same name does not gate this one's edit;
- git runs nothing a hostile ``.git/config`` or hook names; a folder without git gets an id kept
  under ASTRA_HOME, never read from the project.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from astra_memory.context import Context
from astra_memory.scenarios import load_scenario
from astra_memory.session.run import start_session, workspace_task
from astra_memory.stores.attempts import AttemptMemory
from astra_memory.stores.record import memory_id_of
from astra_memory.tasks import complete_task
from astra_memory.workspace.identity import (
    IDS_DIR,
    git_identity,
    normalised_remote,
    project_identity,
)
from tests.conftest import BACKENDS
from tests.helpers import PROJECT_TESTS, clone, git, repository

both_backends = pytest.mark.parametrize("backend", BACKENDS, indirect=True)
TEST_COMMAND = PROJECT_TESTS
SETTINGS = "app/settings.py"
BROKEN = '    return [origin for origin in raw.split(",") if origin]\n'


def alpha() -> Path:
    return load_scenario("alpha").template


# -- the identity itself ------------------------------------------------------------------------

def test_every_spelling_of_one_remote_is_one_remote():
    spellings = ["git@github.com:acme/h3shop.git", "https://github.com/acme/h3shop", "https://GitHub.com/acme/h3shop/",
                 "https://user:s3cret@github.com/acme/h3shop.git", "ssh://git@github.com/acme/h3shop.git",
                 "ssh://git@github.com:22/acme/h3shop", "git://github.com/acme/h3shop.git"]
    assert {normalised_remote(s) for s in spellings} == {"github.com/acme/h3shop"}
    assert "s3cret" not in normalised_remote("https://user:s3cret@github.com/acme/h3shop.git")
    assert normalised_remote("https://github.com/attacker/h3shop") != "github.com/acme/h3shop"  # a fork
    assert normalised_remote("https://git.example.org:8443/acme/h3shop") == "git.example.org:8443/acme/h3shop"


def test_the_same_repository_in_two_folders_is_one_project_and_a_name_is_nothing(tmp_path):
    home = tmp_path / "home"
    origin = repository(tmp_path / "origin", message="acme root")
    one, two = clone(origin, tmp_path / "a" / "h3shop"), clone(origin, tmp_path / "b" / "shop-copy")
    assert project_identity(one, home) == project_identity(two, home)
    assert project_identity(one, home).project_id.startswith("git:")
    # Another repository in a folder of the same name: another project.
    other = repository(tmp_path / "downloads" / "h3shop", message="someone else's root")
    assert project_identity(other, home).project_id != project_identity(one, home).project_id
    # A fork: the same root commit, another remote (decided: another project; module docstring).
    fork = clone(origin, tmp_path / "fork" / "h3shop")
    git(fork, "remote", "set-url", "origin", "https://github.com/attacker/h3shop.git")
    assert git(fork, "rev-list", "--max-parents=0", "HEAD") == git(one, "rev-list", "--max-parents=0", "HEAD")
    assert project_identity(fork, home).project_id != project_identity(one, home).project_id
    # Two folders of one monorepo are two projects; the same folder of two clones is one.
    (one / "backend").mkdir()
    (two / "backend").mkdir()
    (one / "frontend").mkdir()
    assert project_identity(one / "backend", home) == project_identity(two / "backend", home)
    assert project_identity(one / "backend", home) != project_identity(one / "frontend", home)
    assert not (home / IDS_DIR).exists()  # git work trees need no id file


def test_a_folder_without_git_keeps_an_id_under_astra_home_never_in_the_project(tmp_path):
    home = tmp_path / "home"
    folder = tmp_path / "src" / "h3shop"
    folder.mkdir(parents=True)
    (folder / ".astra-project-id").write_text("dir:" + "0" * 32 + "\n")  # a planted claim: never read
    first = project_identity(folder, home)
    assert first == project_identity(folder, home) and first.project_id.startswith("dir:")
    assert "0" * 32 not in first.project_id
    (kept,) = (home / IDS_DIR).iterdir()
    assert str(kept) in first.source and str(folder.resolve()) in kept.read_text()
    assert sorted(p.name for p in folder.iterdir()) == [".astra-project-id"]  # nothing written in the project
    copied = tmp_path / "elsewhere" / "h3shop"
    shutil.copytree(folder, copied)
    assert project_identity(copied, home) != first  # a copy (or a checkout of the same name) is another
    replacement = tmp_path / "src" / "replacement"  # another folder (another inode) put at the same path
    replacement.mkdir()
    shutil.rmtree(folder)
    replacement.rename(folder)
    assert project_identity(folder, home) != first


def test_git_runs_nothing_a_hostile_repository_names(tmp_path):
    repo = repository(tmp_path / "h3shop", message="hostile", remote="https://github.com/acme/h3shop.git")
    marker = tmp_path / "ran"
    command = f"sh -c 'echo x >> {marker}' #"
    with (repo / ".git" / "config").open("a") as config:
        config.write(f'[core]\n\tfsmonitor = "{command}"\n\tpager = "{command}"\n\tsshCommand = "{command}"\n'
                     f'[diff]\n\texternal = "{command}"\n[credential]\n\thelper = "!{command}"\n'
                     f'[include]\n\tpath = {tmp_path / "included"}\n')
    (tmp_path / "included").write_text("[remote \"origin\"]\n\turl = https://github.com/victim/h3shop.git\n")
    hooks = repo / ".git" / "hooks"
    for hook in ("post-checkout", "reference-transaction", "post-index-change", "pre-commit", "post-merge"):
        (hooks / hook).write_text(f"#!/bin/sh\necho {hook} >> {marker}\n")
        (hooks / hook).chmod(0o755)
    identity = git_identity(repo)
    assert identity is not None and "github.com/acme/h3shop" in identity.source  # the include was not read
    assert not marker.exists()
    # The config is live: git's ordinary status runs the fsmonitor command it names.
    subprocess.run(["git", "status"], cwd=repo, capture_output=True, timeout=30,
                   env={**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null"})
    assert marker.exists()


def test_a_task_takes_its_project_id_from_its_folder_never_from_its_input(settings, tmp_path):
    project = repository(tmp_path / "h3shop", alpha(), remote="git@github.com:acme/h3shop.git")
    given = {**workspace_task(project, TEST_COMMAND, settings, "t-id"), "project_id": "git:forged", "project": "x"}
    task = complete_task(given, thread_id="t-id", settings=settings, context=Context())
    assert task["project_id"] == project_identity(project, settings.home).project_id and task["project"] == "x"


# -- whole sessions: replay trust, on both backends ---------------------------------------------

def fix_in(agent, settings, project: Path, thread_id: str) -> dict:
    """A session in ``project`` that fixes alpha's bug (the scripted model: alpha's own solution)."""
    final = start_session(agent, {**workspace_task(project, TEST_COMMAND, settings, thread_id),
                                  "script": load_scenario("alpha").solution, "approve_edits": False})
    assert final["status"] == "fixed" and final["stored_memory_id"], final["reason"]
    return final


def unattended(agent, settings, project: Path, thread_id: str) -> dict:
    """No model, no one to answer approvals: a replay runs only if trusted unasked."""
    return start_session(agent, {**workspace_task(project, TEST_COMMAND, settings, thread_id), "approve_edits": False})


@both_backends
def test_an_untrusted_checkout_named_like_the_users_project_is_not_trusted(agent, settings, tmp_path):
    theirs = repository(tmp_path / "downloads" / "h3shop", alpha(), message="theirs",
                        remote="https://github.com/attacker/h3shop.git")
    mine = repository(tmp_path / "src" / "h3shop", alpha(), message="mine", remote="git@github.com:me/h3shop.git")
    memory_id = fix_in(agent, settings, theirs, "theirs")["stored_memory_id"]
    record = agent.memory.get(memory_id)
    assert record.project == "h3shop" and record.project_id == project_identity(theirs, settings.home).project_id

    before = (mine / SETTINGS).read_bytes()
    final = unattended(agent, settings, mine, "mine")
    assert final["status"] == "needs_model" and (mine / SETTINGS).read_bytes() == before
    (attempt,) = final["replay"]["tried"]
    assert attempt["memory_id"] == memory_id and "another project (h3shop)" in attempt["result"]
    assert final["budget"].get("model_requests", 0) == 0 and not final.get("stored_memory_id")


@both_backends
def test_one_repository_cloned_into_two_folders_trusts_its_own_fix(agent, settings, tmp_path):
    origin = repository(tmp_path / "origin", alpha(), message="acme")
    memory_id = fix_in(agent, settings, clone(origin, tmp_path / "a" / "shop"), "clone-a")["stored_memory_id"]
    copy = clone(origin, tmp_path / "b" / "shop-second-checkout")
    final = unattended(agent, settings, copy, "clone-b")
    assert final["status"] == "fixed" and final["replay"]["replayed"] == memory_id, final["reason"]
    assert final["budget"].get("model_requests", 0) == 0 and BROKEN not in (copy / SETTINGS).read_text()

    # A fork of it (same root commit, another remote) in a folder of the same name: another project.
    fork = clone(origin, tmp_path / "fork" / "shop")
    git(fork, "remote", "set-url", "origin", "https://github.com/attacker/shop.git")
    final = unattended(agent, settings, fork, "fork")
    assert final["status"] == "needs_model" and BROKEN in (fork / SETTINGS).read_text()
    assert all("another project" in a["result"] for a in final["replay"]["tried"])


@both_backends
def test_a_record_stored_before_project_ids_is_another_projects_fix(agent, settings, tmp_path):
    mine = repository(tmp_path / "src" / "h3shop", alpha(), message="mine")
    other = fix_in(agent, settings, repository(tmp_path / "old" / "h3shop", alpha(), message="old"), "old")
    record = agent.memory.get(other["stored_memory_id"])
    # As an earlier version stored it: the folder's name, no project id, its id over the rest.
    legacy = record.model_copy(update={"project_id": "", "confirmations": [
        c.model_copy(update={"project_id": ""}) for c in record.confirmations]})
    legacy = legacy.model_copy(update={"memory_id": memory_id_of(legacy)})
    agent.memory.delete(record.memory_id)
    agent.memory.put_record(legacy)
    assert "project_id" not in agent.memory.store.get(agent.memory.namespace, legacy.memory_id).value

    final = unattended(agent, settings, mine, "mine")
    assert final["status"] == "needs_model" and BROKEN in (mine / SETTINGS).read_text()
    (attempt,) = final["replay"]["tried"]
    assert attempt["memory_id"] == legacy.memory_id and "stored before a project's identity" in attempt["result"]


@pytest.mark.parametrize("store", BACKENDS, indirect=True)
def test_a_failed_attempt_of_another_project_of_the_same_name_gates_nothing(store):
    attempts = AttemptMemory(store)
    states = {SETTINGS: ["a" * 64, "b" * 64]}
    attempts.record(project="h3shop", project_id="git:theirs", failing_tests=["tests/t.py::test_a"],
                    symptom="AssertionError: origins", error_type="AssertionError", diff="--- a\n+++ b\n",
                    file_states=states, end="tests_failed", outcome="1 failed", still_failing=["tests/t.py::test_a"],
                    newly_failing=[], session_id="theirs", state="c" * 64)
    asked = {"project": "h3shop", "failing_tests": ["tests/t.py::test_a"], "file_states": states,
             "state_now": lambda: "c" * 64}
    assert attempts.repeat_of(**asked, project_id="git:mine") is None
    assert attempts.repeat_of(**asked, project_id="git:theirs") is not None
    shown = attempts.delivered("AssertionError: origins", project="h3shop", project_id="git:mine",
                               failing_tests=["tests/t.py::test_a"])
    assert not any(hit.same_failure for hit in shown)  # at most a similar symptom elsewhere

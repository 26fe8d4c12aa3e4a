"""Shared builders for session tests: scenario tasks with custom (hostile) scripts."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from astra_memory.scenarios import load_scenario
from astra_memory.session.run import scenario_task
from astra_memory.testrun.private_root import HIDDEN

# A writable folder a private root does not replace with a tmpfs (the suite's tmp_path is under /tmp,
# which it does): the checkout, unless it is itself under /tmp (a worktree there), then the user's home.
OUTSIDE_TMP = next(p for p in (Path(__file__).resolve().parent.parent, Path.home())
                   if not any(p.is_relative_to(h) for h in HIDDEN))


# The test command of the suite's own projects under repair (``--workspace`` tasks), on our interpreter:
# its installed pytest plugins are not autoloaded in any process the suite starts (tests/conftest.py).
PROJECT_PYTEST = "python -m pytest -q -p no:cacheprovider"  # its test paths follow
PROJECT_TESTS = f"{PROJECT_PYTEST} tests"


def call(tool: str, **args) -> dict:
    return {"tool": tool, "args": args}


def task_with_script(settings, thread_id: str, script: list[dict] | None = None, scenario: str = "alpha"):
    loaded = load_scenario(scenario)
    task = scenario_task(loaded, settings, thread_id)
    if script is not None:
        task["script"] = script
    return task


# The model states its diagnosis before its first edit (the diagnosis gate, nodes/diagnosis_search.py).
ALPHA_DIAGNOSIS = call("state_diagnosis", error_type="AssertionError",
                       cause="Comma-separated origins keep the whitespace around each entry after splitting.",
                       files=["app/settings.py"])
ALPHA_FIX = call("apply_edit", path="app/settings.py",
                 old_text='    return [origin for origin in raw.split(",") if origin]',
                 new_text='    return [origin.strip() for origin in raw.split(",") if origin.strip()]')
FINISH = call("finish", fix_description="Strip whitespace around comma-separated values.", error_type="AssertionError")


def write_project(root: Path, files: dict[str, str]) -> Path:
    """A project folder at ``root`` holding ``files`` (relative path: text), parents made."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def file_text(task, rel: str) -> str:
    return (Path(task["workspace"]) / rel).read_text()


def make_venv(where: Path, *, tool_packages: bool, modules: dict[str, str] | None = None) -> Path:
    """A real virtualenv at ``where`` (no pip, about a second), as a user's project would have one.

    ``tool_packages``: its site-packages reaches the tool's own (a ``.pth``), so it has pytest without
    a download; without it the venv has nothing but the standard library. ``modules``: extra
    single-file modules installed into it (``{"name": "source"}``), ones the tool's interpreter lacks."""
    import site
    import subprocess
    import venv

    venv.EnvBuilder(with_pip=False).create(where)
    python = where / "bin" / "python"
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    if tool_packages:
        Path(purelib, "tool.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    for name, source in (modules or {}).items():
        Path(purelib, f"{name}.py").write_text(source)
    return where


# -- git repositories: a project is its repository, not its folder's name (workspace/identity.py) --

def git(where: Path, *args: str) -> str:
    """git in ``where``, as a user would run it, minus their own configuration."""
    env = {**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-c",
                           "init.defaultBranch=main", *args], cwd=where, env=env, check=True,
                          capture_output=True, text=True).stdout


def repository(where: Path, template: Path | None = None, *, message: str = "root",
               remote: str | None = None) -> Path:
    """A git repository at ``where`` (``template``'s files copied in first, if given) with its files
    in one commit, and ``origin`` = ``remote`` if given."""
    if template is not None:
        shutil.copytree(template, where, ignore=shutil.ignore_patterns("__pycache__"))
    where.mkdir(parents=True, exist_ok=True)
    git(where, "init", "-q")
    git(where, "add", "-A", "-f")  # every file of the template, ignored or not
    git(where, "commit", "-q", "--allow-empty", "-m", message)
    if remote:
        git(where, "remote", "add", "origin", remote)
    return where


def clone(origin: Path, where: Path) -> Path:
    """A clone of ``origin`` at ``where``: the same project as every other clone of it."""
    where.parent.mkdir(parents=True, exist_ok=True)
    git(where.parent, "clone", "-q", str(origin), str(where))
    return where

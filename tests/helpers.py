"""Shared builders for session tests: scenario tasks with custom (hostile) scripts."""

from __future__ import annotations

from pathlib import Path

from astra_memory.scenarios import load_scenario
from astra_memory.session.run import scenario_task


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

"""The environment is part of the snapshot (issue #21).

The fresh copy that confirms a fix links the project's ``.venv``; a test run that writes into it (or
into the agent's own interpreter) changes what every later run imports. A hostile scripted model
(tests/hostile_results/planted_pth) has a test run plant a ``.pth`` import hook in the project's
linked venv, then reduces its edits to a docstring: the session must not end ``fixed`` and
nothing is stored, whether the environment is read-only for the test step (a mount namespace) or
checked by manifest after each run. An honest fix in the same project is still confirmed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from astra_memory.session.run import start_session
from astra_memory.testrun import manifest
from astra_memory.testrun.isolation import read_only_supported
from astra_memory.testrun.manifest import (
    Environment,
    differences,
    environment_folders,
    fresh_bytecode,
    full_manifest,
    record_environment,
)
from astra_memory.testrun.run import run_tests
from astra_memory.testrun.run import test_environment as step_environment
from tests.helpers import task_with_script

HOSTILE = Path(__file__).parent / "hostile_results"
PLANTED = ("zz_speedups.pth", "zz_speedups.py")
GUARDS = [pytest.param("read-only", marks=pytest.mark.skipif(not read_only_supported(),
                                                              reason="no mount namespace for test steps here")),
          "manifest"]


def make_venv(where: Path) -> Path:
    """A venv of this interpreter's Python, seeing its base's packages (and ours, if pytest is not
    among those); its site-packages folder."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(where)], check=True,
                   capture_output=True, timeout=120)
    python = where / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    if subprocess.run([str(python), "-c", "import pytest"], capture_output=True).returncode != 0:
        import sysconfig

        (site / "_astra_test_packages.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return site


@pytest.fixture
def guard(request, monkeypatch) -> str:
    monkeypatch.setattr(manifest, "guard_mode", lambda: request.param)
    return request.param


def _venv_session(agent, settings, thread_id: str, script=None):
    task = task_with_script(settings, thread_id, script, scenario=str(HOSTILE / "planted_pth"))
    site = make_venv(Path(task["workspace"]) / ".venv")
    return task, site, start_session(agent, task)


@pytest.mark.parametrize("guard", GUARDS, indirect=True)
def test_a_pth_planted_in_a_linked_venv_is_not_confirmed(agent, settings, guard):
    task, site, final = _venv_session(agent, settings, f"t-planted-pth-{guard}")
    assert final["status"] != "fixed" and final.get("stored_memory_id") is None and final.get("confirm") is None
    assert agent.memory.count() == 0
    runs = [r for r in final["test_runs"] if r["phase"] == "test"]
    assert len(runs) == 3 and not any(r["passed"] for r in runs)
    observe = final["test_runs"][0]
    assert observe["environment"]["guard"] == guard
    assert str(site.parent.parent.parent) in observe["environment"]["roots"]  # the workspace's .venv, all of it
    if guard == "read-only":  # the step could not write the venv: nothing was planted, the bug stays
        assert not any((site / name).exists() for name in PLANTED)
        assert all("still failing: tests/test_calc.py::test_add" in r["outcome"] for r in runs)
        return
    # manifest: the plant landed in the first run; that run and every later one fail, naming it
    assert all((site / name).exists() for name in PLANTED)
    last = runs[-1]
    assert last["outcome"].startswith("1 of 1 failing tests now pass; 2 passed, 0 failed; not a pass: the "
                                      "environment the tests import from changed: ")  # passes only by the plant
    for run in runs:
        assert f"{site / 'zz_speedups.pth'} (new)" in run["outcome"]
        assert sorted(run["environment_changes"]) == [f"{site / name} (new)" for name in PLANTED]


HONEST = [{"tool": "state_diagnosis", "args": {"error_type": "AssertionError", "files": ["app/calc.py"],
                                               "cause": "The addition function subtracts instead of adding."}},
          {"tool": "apply_edit", "args": {"path": "app/calc.py", "old_text": "    return a - b",
                                          "new_text": "    return a + b"}},
          {"tool": "finish", "args": {"error_type": "AssertionError", "fix_description": "add() adds."}}]


@pytest.mark.parametrize("guard", GUARDS, indirect=True)
def test_an_honest_fix_with_a_linked_venv_is_confirmed(agent, settings, guard):
    task, _, final = _venv_session(agent, settings, f"t-honest-venv-{guard}", HONEST)
    assert final["status"] == "fixed", final.get("reason")
    outcome = "1 of 1 failing tests now pass; 2 passed, 0 failed"
    assert final["confirm"]["outcome"] == outcome == agent.memory.get(final["stored_memory_id"]).outcome
    assert all(not r.get("environment_changes") for r in final["test_runs"])


# -- the parts -----------------------------------------------------------------------------------------

def test_the_environment_covers_the_venv_the_interpreter_and_the_agents_own(tmp_path):
    site = make_venv(tmp_path / "ws" / ".venv")
    roots, imports, python = environment_folders(tmp_path / "ws", ".venv/bin/python -m pytest",
                                                 step_environment(tmp_path / "ws"))
    assert python == str(tmp_path / "ws" / ".venv" / "bin" / "python")
    assert str((tmp_path / "ws" / ".venv").resolve()) in roots and str(site.resolve()) in imports
    assert os.path.realpath(sys.executable) in roots  # the interpreter binary itself
    assert sys.prefix == sys.base_prefix or str(Path(sys.prefix).resolve()) in roots  # the agent's own venv
    assert not any(Path(r) == tmp_path / "ws" or Path(r) in (tmp_path / "ws").parents for r in roots)


def test_the_manifest_finds_a_new_pth_and_a_rewrite_that_kept_its_mtime(tmp_path):
    site = tmp_path / "site-packages"
    (site / "pkg").mkdir(parents=True)
    (site / "pkg" / "mod.py").write_text("X = 1\n")
    (site / "a.pth").write_text("/nowhere\n")
    before = full_manifest([str(site)])
    assert differences(before, full_manifest([str(site)])) == []
    st = (site / "pkg" / "mod.py").stat()
    (site / "pkg" / "mod.py").write_text("X = 2\n")  # same size, mtime set back: ctime still moves
    os.utime(site / "pkg" / "mod.py", ns=(st.st_atime_ns, st.st_mtime_ns))
    (site / "zz.pth").write_text("import os\n")
    assert differences(before, full_manifest([str(site)])) == [f"{site / 'pkg' / 'mod.py'} (changed)",
                                                               f"{site / 'zz.pth'} (new)"]


def test_bytecode_python_writes_is_not_a_change_but_forged_bytecode_is(tmp_path):
    import py_compile

    site = tmp_path / "site-packages"
    site.mkdir()
    (site / "mod.py").write_text("def f():\n    return 1\n")
    before = full_manifest([str(site)])
    pyc = Path(py_compile.compile(str(site / "mod.py"), doraise=True))
    assert fresh_bytecode(str(pyc)) and differences(before, full_manifest([str(site)])) == []
    (tmp_path / "evil.py").write_text("def f():\n    return 2\n")  # other code under the source's header
    evil = Path(py_compile.compile(str(tmp_path / "evil.py"), doraise=True))
    pyc.write_bytes(pyc.read_bytes()[:16] + evil.read_bytes()[16:])
    assert not fresh_bytecode(str(pyc))
    assert differences(before, full_manifest([str(site)])) == [f"{pyc} (new)"]


def _writer(root: Path) -> Path:
    """A project whose one test writes the file $TARGET names (and passes either way)."""
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "test_w.py").write_text(
        "import os\nimport pathlib\n\n\ndef test_write():\n"
        "    try:\n        pathlib.Path(os.environ['TARGET']).write_text('planted')\n"
        "    except OSError:\n        pass\n")
    return root


@pytest.mark.parametrize("guard", GUARDS, indirect=True)
def test_a_test_run_that_writes_the_environment_fails_with_the_path(tmp_path, guard):
    root = _writer(tmp_path / "ws")
    env_dir = root / ".venv" / "lib"
    env_dir.mkdir(parents=True)
    target = env_dir / "planted.pth"
    environment = record_environment(root, "python -m pytest -q tests", step_environment(root), tmp_path / "run")
    assert isinstance(environment, Environment) and str(env_dir.parent) in environment.roots
    run = run_tests(root, "python -m pytest -q -p no:cacheprovider tests", environment=environment,
                    env={"TARGET": str(target), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    if guard == "read-only":  # mounted read-only for the step: the write failed, nothing changed
        assert run.passed and not target.exists() and run.environment_changes == []
    else:
        assert not run.passed and run.environment_changes == [f"{target} (new)"]
        assert f"the environment the tests import from changed: {target} (new)" in run.outcome

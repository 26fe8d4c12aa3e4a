"""The `astra-memory` console script as pip installs it from this checkout, not `python -m`.

The script must run ``main()`` (its last resort turns a data error no command expected into one
line and exit 2), and an installed package, which has no evals/ folder, must say where the blind
sets are instead of looking beside site-packages. The package is installed (not editable) into a
fresh virtual environment that borrows this interpreter's dependencies through a ``.pth`` file,
offline (``--no-index --no-deps --no-build-isolation``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from typer.testing import CliRunner

from astra_memory.bench.cli import checkout_evals
from tests.conftest import ROOT, cli_env


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A venv with this checkout installed by pip; returns its bin/ folder."""
    base = tmp_path_factory.mktemp("installed")
    source = base / "source"  # a copy: a build writes build/ and *.egg-info beside pyproject.toml
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "astra_memory", source / "astra_memory",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    ours = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))  # our dependencies
    Path(site, "_astra_test_dependencies.pth").write_text("".join(f"{p}\n" for p in ours))
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-index", "--no-deps",
         "--no-build-isolation", "--ignore-installed", "--disable-pip-version-check", str(source)],
        capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stdout + install.stderr
    return venv / "bin"


def _env(tmp_path: Path) -> dict[str, str]:
    env = cli_env(ASTRA_HOME=str(tmp_path / "home"), ASTRA_EMBEDDINGS="hash")
    env.pop("PYTHONPATH", None)
    return env


@pytest.mark.slow
def test_the_installed_script_runs_main_and_its_last_resort(installed, tmp_path):
    where = subprocess.run([str(installed / "python"), "-c", "import astra_memory; print(astra_memory.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, env=_env(tmp_path), timeout=60)
    assert where.stdout.startswith(str(installed.parent)), where.stdout + where.stderr  # the copy pip installed
    script = installed / "astra-memory"
    assert "from astra_memory.cli.app import main" in script.read_text()
    # An error no command expected: `memory export` onto a folder raises IsADirectoryError from
    # open(); only main()'s last resort turns it into a message.
    folder = tmp_path / "a-folder"
    folder.mkdir()
    result = subprocess.run([str(script), "memory", "export", str(folder)], capture_output=True, text=True,
                            cwd=tmp_path, env=_env(tmp_path), timeout=120)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [f"error: cannot use {folder}: Is a directory"]


@pytest.mark.slow
def test_the_installed_bench_says_the_blind_sets_need_a_checkout(installed, tmp_path):
    # A missing --diagnoses file stops the run after the case sets are chosen and before the
    # model loads: what the installed bench says about its sets, in a second.
    result = subprocess.run([str(installed / "astra-memory"), "bench", "retrieval", "--diagnoses",
                             str(tmp_path / "missing.jsonl")], capture_output=True, text=True, cwd=tmp_path,
                            env=_env(tmp_path), timeout=120)
    assert result.returncode == 2, result.stderr
    note, error = result.stderr.strip().splitlines()
    assert note.startswith("note: this installed package has the development sets only")
    assert "--evals DIR" in note and "--cases FILE" in note and "astra_memory/bench/cases/" in note
    assert error.startswith("error: ") and "is not a file" in error
    # Pointed at a checkout's evals/ folder, it has the blind sets again: no note.
    again = subprocess.run([str(installed / "astra-memory"), "bench", "retrieval", "--evals", str(ROOT / "evals"),
                            "--diagnoses", str(tmp_path / "missing.jsonl")], capture_output=True, text=True,
                           cwd=tmp_path, env=_env(tmp_path), timeout=120)
    assert again.returncode == 2 and "note:" not in again.stderr and "is not a file" in again.stderr


def test_a_checkout_is_found_only_where_our_pyproject_is(tmp_path):
    assert checkout_evals() == ROOT / "evals"  # the tests run from the checkout
    site = tmp_path / "site-packages"
    (site / "evals").mkdir(parents=True)  # another distribution's top-level evals/
    assert checkout_evals(site) is None
    (site / "pyproject.toml").write_text('[project]\nname = "someone-else"\n')
    assert checkout_evals(site) is None
    (site / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    assert checkout_evals(site) == site / "evals"


def test_evals_must_hold_a_blind_set(tmp_path):
    from astra_memory.cli.app import app

    result = CliRunner().invoke(app, ["bench", "retrieval", "--evals", str(tmp_path)])
    assert result.exit_code == 2
    assert "--evals" in result.output and "blind/cases.jsonl" in " ".join(result.output.split())
    assert os.listdir(tmp_path) == []

"""The newcomer's path: a fresh venv, `pip install torch==2.13.0` then `pip install <this project>` (no
repo scripts, no requirements.txt), and `astra-memory demo` ends with all three sessions `fixed`.

A real fresh venv (not --system-site-packages, which would hide a missing dependency); pip installs
from the machine's configured index and wheel caches. About 1.5 minutes here, most of it pip.
"""

import json
import os
import shutil
import subprocess
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SKIP = shutil.ignore_patterns(".venv", ".git", "build", "*.egg-info", "__pycache__", "results", ".astra")


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ASTRA_", "OPENAI_", "VIRTUAL_ENV", "PYTHON"))}
    env.update(ASTRA_HOME=str(home), PATH=os.pathsep.join([str(home.parent / "venv" / "bin"), "/usr/bin", "/bin"]))
    return env


@pytest.mark.slow
@pytest.mark.minilm
def test_a_plain_pip_install_runs_the_demo_to_fixed_sessions(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=SKIP)  # pip builds in the tree: never in the checkout itself
    venv.EnvBuilder(with_pip=True).create(tmp_path / "venv")
    bin_dir = tmp_path / "venv" / "bin"
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "--quiet"]
    env = _env(tmp_path / "home")
    for args in (["torch==2.13.0"], [str(source)]):
        done = subprocess.run(pip + args, capture_output=True, text=True, env=env, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
    assert subprocess.run([bin_dir / "python", "-c", "import langchain_community"], env=env,
                          capture_output=True).returncode != 0  # the bench extra is not part of a plain install

    demo = subprocess.run([bin_dir / "astra-memory", "demo", "--json"], capture_output=True, text=True, env=env,
                          timeout=600, cwd=tmp_path)
    assert demo.returncode == 0, (demo.stdout[-3000:], demo.stderr[-3000:])
    evidence = json.loads(demo.stdout)
    assert [(s["scenario"], s["status"]) for s in evidence["sessions"]] == [
        ("alpha", "fixed"), ("beta", "fixed"), ("alpha-again", "fixed")]
    assert all(s["original_tests_passed"] for s in evidence["sessions"])
    assert evidence["sessions"][1]["memory_hits_before_first_edit"]  # beta found alpha's fix

    bench = subprocess.run([bin_dir / "astra-memory", "bench", "retrieval"], capture_output=True, text=True,
                           env=env, timeout=300, cwd=tmp_path)
    assert bench.returncode == 2 and 'pip install "astra-codebase-memory[bench]"' in bench.stderr

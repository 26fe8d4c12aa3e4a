"""The newcomer's path: a fresh venv, `pip install <this project>` (no repo scripts, no requirements.txt),
and `astra-memory demo` ends with all three sessions `fixed`, then `memory search` finds their fixes;
all without PyTorch, which the default install does not bring (issue 36 item 11: the `torch` extra).

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
    # --no-compile: the demo compiles what it imports as it runs (PYTHONDONTWRITEBYTECODE is not passed on),
    # not every module of every dependency (a few CPU-seconds less here).
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--no-compile"]
    env = _env(tmp_path / "home")
    done = subprocess.run(pip + [str(source)], capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    for extra_only in ("langchain_community", "torch", "transformers", "sentence_transformers"):
        assert subprocess.run([bin_dir / "python", "-c", f"import {extra_only}"], env=env,
                              capture_output=True).returncode != 0, f"{extra_only} is in a plain install"
    env["HF_HUB_OFFLINE"] = "1"

    demo = subprocess.run([bin_dir / "astra-memory", "demo", "--json"], capture_output=True, text=True, env=env,
                          timeout=600, cwd=tmp_path)
    assert demo.returncode == 0, (demo.stdout[-3000:], demo.stderr[-3000:])
    evidence = json.loads(demo.stdout)
    assert [(s["scenario"], s["status"]) for s in evidence["sessions"]] == [
        ("alpha", "fixed"), ("beta", "fixed"), ("alpha-again", "fixed")]
    assert all(s["original_tests_passed"] for s in evidence["sessions"])
    assert evidence["sessions"][1]["memory_hits_before_first_edit"]  # beta found alpha's fix
    search = subprocess.run([bin_dir / "astra-memory", "memory", "search", "assert total == expected", "--json"],
                            capture_output=True, text=True, timeout=300, cwd=tmp_path,
                            env={**env, "ASTRA_HOME": evidence["data_dir"], "ASTRA_MIN_SCORE": "0",
                                 "ASTRA_MIN_FUSED_SCORE": "0"})
    assert search.returncode == 0, search.stderr[-3000:]
    stored = {s["stored_memory_id"] for s in evidence["sessions"][:2]}
    assert stored and stored <= {hit["memory_id"] for hit in json.loads(search.stdout)}

    bench = subprocess.run([bin_dir / "astra-memory", "bench", "retrieval"], capture_output=True, text=True,
                           env=env, timeout=300, cwd=tmp_path)
    assert bench.returncode == 2 and 'pip install "astra-codebase-memory[bench]"' in bench.stderr

"""Damaged, read-only and full data files, and bad input: a clear message naming the file, exit
2, never a traceback, and nothing written over.

The read-only and full-disk cases are real, not simulated by our code: a read-only bind mount of a
populated ASTRA_HOME (``mount -o remount,ro,bind``; root ignores file modes, a mount it cannot
ignore), and a small tmpfs as ASTRA_HOME filled up while a session is held at a point (a real
ENOSPC / SQLITE_FULL from the kernel). Both need mount privileges; without them they are skipped
with the reason.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli_env, run_cli


def _damage(path, how: str) -> bytes:
    if how == "not-sqlite":
        path.write_bytes(b"this is a text file, not a database\n" * 10)
    elif how == "garbage-middle":  # a real database with one page of garbage in its middle
        data = bytearray(path.read_bytes())
        middle = (len(data) // 2) // 4096 * 4096
        data[middle:middle + 4096] = bytes((i * 151 + 7) % 256 for i in range(4096))
        path.write_bytes(bytes(data))
    else:  # truncated: a real database cut short
        data = path.read_bytes()
        path.write_bytes(data[: max(len(data) // 3, 200)])
    return path.read_bytes()


@pytest.fixture(scope="module")
def populated_template(tmp_path_factory):
    home = tmp_path_factory.mktemp("populated") / "astra-home"
    env = cli_env(ASTRA_HOME=str(home), ASTRA_EMBEDDINGS="hash")
    assert run_cli("run", "alpha", "--thread-id", "keep-1", env=env).returncode == 0
    return home  # the process has exited: its WAL is checkpointed into the main files


@pytest.fixture
def populated_home(isolated_home, populated_template):
    shutil.copytree(populated_template, isolated_home)
    return isolated_home


@pytest.mark.parametrize("how", ["not-sqlite", "truncated", "garbage-middle"])
@pytest.mark.parametrize("name, command", [
    ("memory.sqlite", ("memory", "list")),
    ("checkpoints.sqlite", ("threads",)),
    ("checkpoints.sqlite", ("resume", "keep-1")),
    ("memory.sqlite", ("run", "beta")),
])
def test_damaged_files_are_reported_not_overwritten(populated_home, how, name, command):
    path = populated_home / name
    damaged = _damage(path, how)
    result = run_cli(*command, env=cli_env())
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert str(path) in result.stderr and "damaged" in result.stderr and ".damaged" in result.stderr
    assert path.read_bytes() == damaged


def test_nonexistent_test_command_is_a_clear_failure(tmp_path):
    project = tmp_path / "proj"
    (project / "tests").mkdir(parents=True)
    result = run_cli("run", "--workspace", str(project), "--test-command", "no-such-runner -q")
    assert result.returncode == 2  # refused before the session starts (preflight): no thread is left behind
    assert "'no-such-runner' is not found on the test PATH" in result.stderr


def test_scenario_folder_without_tests_is_a_clear_error(tmp_path):
    scenario = tmp_path / "broken"
    (scenario / "project" / "app").mkdir(parents=True)
    (scenario / "scenario.toml").write_text('name="b"\nfamily="f"\nprompt="p"\ntest_command="python -m pytest"\n')
    result = run_cli("run", str(scenario))
    assert result.returncode == 2 and "has no tests" in result.stderr


# -- bad input: exit 2, never a traceback or 1 ------------------------------------------------------

def _no_traceback(result, code: int = 2) -> str:
    assert result.returncode == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result.stderr


def test_unbalanced_quote_in_test_command(tmp_path):
    project = tmp_path / "proj"
    (project / "tests").mkdir(parents=True)
    stderr = _no_traceback(run_cli("run", "--workspace", str(project), "--test-command", "python -m pytest 'tests"))
    assert "does not parse" in stderr and "No closing quotation" in stderr


def test_import_of_a_non_utf8_file(tmp_path):
    bad = tmp_path / "latin1.jsonl"
    bad.write_bytes(b'{"symptom": "caf\xe9"}\n')
    stderr = _no_traceback(run_cli("memory", "import", str(bad)))
    assert "line 1: not UTF-8" in stderr and "nothing imported" in stderr


def test_import_of_bad_lines_is_exit_2(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"memory_id": "x"}\n[1, 2]\nnot json\n')
    stderr = _no_traceback(run_cli("memory", "import", str(bad)))
    assert "3 bad line(s)" in stderr and "line 2" in stderr and "line 3" in stderr


def test_import_of_a_line_nested_too_deep_is_exit_2(tmp_path):
    """json's decoder recurses once per level: a line of 100,000 brackets was a RecursionError traceback
    (exit 1) on main (outside round 9 case 09)."""
    bad = tmp_path / "deep.jsonl"
    bad.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    stderr = _no_traceback(run_cli("memory", "import", str(bad)))
    assert "line 1: nested too deep" in stderr and "nothing imported" in stderr


def test_export_to_a_missing_folder(tmp_path):
    target = tmp_path / "no-such-folder" / "out.jsonl"
    stderr = _no_traceback(run_cli("memory", "export", str(target)))
    assert "does not exist" in stderr and str(target.parent) in stderr
    assert not target.parent.exists()


# -- a read-only ASTRA_HOME ----------------------------------------------------------------------

def _mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


@pytest.fixture
def read_only_home(populated_template, tmp_path):
    """A read-only view (bind mount, remounted ro) of a populated ASTRA_HOME."""
    source, view = tmp_path / "source", tmp_path / "ro-home"
    shutil.copytree(populated_template, source)
    view.mkdir()
    if not (_mount("--bind", str(source), str(view)) and _mount("-o", "remount,ro,bind", str(view))):
        subprocess.run(["umount", str(view)], capture_output=True)
        pytest.skip("cannot make a read-only bind mount here (needs root / CAP_SYS_ADMIN)")
    try:
        yield view
    finally:
        subprocess.run(["umount", str(view)], capture_output=True)


def test_read_only_home_serves_the_read_only_commands(read_only_home):
    env = cli_env(ASTRA_HOME=str(read_only_home), ASTRA_MIN_SCORE="0")
    before = {p.name: p.read_bytes() for p in read_only_home.iterdir() if p.is_file()}
    listing = run_cli("memory", "list", "--json", env=env)
    assert listing.returncode == 0, listing.stderr
    (record,) = json.loads(listing.stdout)
    shown = run_cli("memory", "show", record["memory_id"], "--json", env=env)
    assert shown.returncode == 0 and json.loads(shown.stdout)["memory_id"] == record["memory_id"]
    hits = run_cli("memory", "search", "second origin rejected after comma", "--json", env=env)
    assert hits.returncode == 0 and json.loads(hits.stdout)[0]["memory_id"] == record["memory_id"]
    threads = run_cli("threads", "--json", env=env)
    assert threads.returncode == 0, threads.stderr
    assert [(t["thread_id"], t["status"]) for t in json.loads(threads.stdout)] == [("keep-1", "fixed")]
    # What must write says so, naming the folder, with exit 2.
    for command in (("run", "beta"), ("memory", "delete", record["memory_id"]), ("resume", "keep-1")):
        stderr = _no_traceback(run_cli(*command, env=env))
        assert "read-only" in stderr and str(read_only_home) in stderr, (command, stderr)
    assert {p.name: p.read_bytes() for p in read_only_home.iterdir() if p.is_file()} == before


# -- a full disk -----------------------------------------------------------------------------------

@pytest.fixture
def small_disk(tmp_path):
    """A 24 MB tmpfs: a real file system that really fills up."""
    mount_point = tmp_path / "small-disk"
    mount_point.mkdir()
    if not _mount("-t", "tmpfs", "-o", "size=24m", "tmpfs", str(mount_point)):
        pytest.skip("cannot mount a tmpfs here (needs root / CAP_SYS_ADMIN)")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], capture_output=True)


def _fill(disk: Path) -> Path:
    filler = disk / "filler"
    chunk = b"\0" * (1 << 20)
    with open(filler, "wb", buffering=0) as out:
        for size in (1 << 20, 1 << 12, 1):
            try:
                while True:
                    out.write(chunk[:size])
            except OSError:
                continue
    return filler


def test_a_session_stopped_by_a_full_disk_resumes_once_space_is_back(small_disk):
    home = small_disk / "astra-home"
    hold = small_disk.parent / "hold"
    env = cli_env(ASTRA_HOME=str(home), ASTRA_HOLD_AT="after:memory_search", ASTRA_HOLD_FILE=str(hold))
    runner = subprocess.Popen([sys.executable, "-m", "astra_memory", "run", "alpha", "--thread-id", "full-1"],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not Path(f"{hold}.reached").exists():
        assert runner.poll() is None and time.monotonic() < deadline, runner.communicate()
        time.sleep(0.05)
    filler = _fill(small_disk)  # the disk is full while the session is between two checkpoints
    hold.touch()
    _, stderr = runner.communicate(timeout=120)
    assert runner.returncode == 2, stderr
    assert "Traceback" not in stderr and "no space left" in stderr and str(home) in stderr
    assert "astra-memory resume full-1" in stderr
    filler.unlink()  # space is back
    env = cli_env(ASTRA_HOME=str(home))
    (listed,) = json.loads(run_cli("threads", "--json", env=env).stdout)
    assert listed["thread_id"] == "full-1" and listed["status"] == "interrupted"
    resumed = run_cli("resume", "full-1", "--json", env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["status"] == "fixed"
    assert len(json.loads(run_cli("memory", "list", "--json", env=env).stdout)) == 1

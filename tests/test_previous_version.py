"""Data written by the previous version (0.1, commit 32d1147) under this one.

``tests/data/v0.1-home.tgz`` is an ``ASTRA_HOME`` that 0.1 wrote with its own CLI:

- ``run beta --thread-id v01-beta`` (fixed: one record in memory),
- ``run alpha --thread-id v01-alpha-searched`` killed after ``memory_search`` (ASTRA_CRASH_AT): its
  scripted model has no diagnosis step, which this version's edit gate requires,
- ``run alpha --thread-id v01-alpha-tested`` killed after a passing ``test`` run, so its state holds
  0.1's ``confirmed_outcome`` (now ``passed_outcome``).

Checkpoints hold absolute paths (the workspace, the run folder), so the archive is unpacked where
0.1 wrote it; a file lock keeps two copies of the suite from sharing it at once.
"""

from __future__ import annotations

import json
import shutil
import tarfile
from pathlib import Path

import pytest
from filelock import FileLock

from tests.conftest import ROOT, cli_env, run_cli

ARCHIVE = ROOT / "tests" / "data" / "v0.1-home.tgz"
WHERE = Path("/tmp/astra-v0.1-fixture")  # where 0.1 wrote it (the checkpoints name this path)

pytestmark = [pytest.mark.slow, pytest.mark.minilm]  # 0.1 embedded its memory with MiniLM


@pytest.fixture(scope="module")
def previous_home():
    with FileLock(f"{WHERE}.lock", timeout=600):
        shutil.rmtree(WHERE, ignore_errors=True)
        WHERE.mkdir(parents=True)
        with tarfile.open(ARCHIVE) as archive:
            archive.extractall(WHERE, filter="data")
        try:
            yield WHERE / "home"
        finally:
            shutil.rmtree(WHERE, ignore_errors=True)


def _env(home: Path) -> dict[str, str]:
    return cli_env(ASTRA_HOME=str(home), ASTRA_EMBEDDINGS="minilm")


def test_a_memory_written_by_the_previous_version_lists_and_searches(previous_home):
    listed = run_cli("memory", "list", "--json", env=_env(previous_home))
    assert listed.returncode == 0, listed.stderr
    records = json.loads(listed.stdout)
    assert [r["project"] for r in records] == ["ledgerline"]
    found = run_cli("memory", "search", "AssertionError: header Audit-Log is not the field audit_log", "--json",
                    env=_env(previous_home))
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)
    assert hits and hits[0]["memory_id"] == records[0]["memory_id"]


def _refused_in_one_line(home: Path, thread: str) -> str:
    resumed = run_cli("resume", thread, env=_env(home))
    assert resumed.returncode == 2, resumed.stdout + resumed.stderr
    lines = resumed.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in resumed.stderr, resumed.stderr
    assert "earlier version" in lines[0] and "new thread id" in lines[0]
    return lines[0]


def test_a_thread_stopped_with_a_retired_field_is_refused_in_one_line(previous_home):
    assert "'confirmed_outcome'" in _refused_in_one_line(previous_home, "v01-alpha-tested")


def test_a_thread_stopped_before_any_renamed_field_is_refused_too(previous_home):
    """Its scripted model has no diagnosis step, which the edit gate now requires: it would run half
    right, so it is refused like the other (and a finished 0.1 thread still lists as it was)."""
    assert "state version 1" in _refused_in_one_line(previous_home, "v01-alpha-searched")
    listed = run_cli("threads", "--json", env=_env(previous_home))
    assert listed.returncode == 0, listed.stderr
    rows = {r["thread_id"]: r for r in json.loads(listed.stdout)}
    assert rows["v01-beta"]["status"] == "fixed"


def test_a_previous_record_without_a_cause_is_found_by_a_diagnosis(previous_home, tmp_path):
    """0.1's record has no diagnosis (issue 26 part 2 came later): the diagnosis search matches its
    error type and fix description instead, and a new record stored beside it carries its cause.
    On a copy: the archive stays as 0.1 wrote it."""
    from astra_memory.backends.sqlite.store import open_sqlite_store
    from astra_memory.stores.embeddings import MiniLMEmbeddings
    from astra_memory.stores.memory import FixMemory

    copy = tmp_path / "memory.sqlite"
    shutil.copy(previous_home / "memory.sqlite", copy)
    with open_sqlite_store(copy, MiniLMEmbeddings()) as store:
        memory = FixMemory(store)
        (old,) = memory.list_records()
        assert old.diagnosis is None
        assert old.cause_text == f"{old.error_type}: {' '.join(old.fix_description.split())}"
        hits = memory.search_codebase_memory(f"{old.error_type}: {old.fix_description}", against="cause")
        assert [h.record.memory_id for h in hits] == [old.memory_id]
        new = memory.store_fix_memory(
            fix_description="Compare header names case-insensitively", error_type="KeyError",
            file_paths=["app/headers.py"], outcome="1 of 1 failing tests now pass", symptom="KeyError: 'Audit-Log'",
            confirmed_outcome="1 of 1 failing tests now pass", diff="", session_id="s-new", project="other",
            diagnosis={"error_type": "KeyError", "cause": "header lookup is case-sensitive but HTTP header names "
                                                         "are not", "files": ["app/headers.py"]})
        assert memory.get(new.memory_id).diagnosis.cause.startswith("header lookup is case-sensitive")
        assert len(memory.list_records()) == 2 and memory.get(old.memory_id) == old

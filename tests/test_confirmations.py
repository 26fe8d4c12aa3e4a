"""One record per fix, with its confirmations (issue 12, part 1), on a real SqliteStore file and a
real PostgresStore (tests/pg.py); deterministic embeddings."""

import difflib
import json
import subprocess
import sys
import threading
from datetime import datetime, timezone

import pytest

from astra_memory.backends.open import open_memory_store
from astra_memory.stores.embeddings import HashEmbeddings
from astra_memory.stores.memory import NAMESPACE, FixMemory
from astra_memory.stores.upgrade import upgrade_memory
from tests.conftest import BACKENDS, MEMORY_TARGETS, ROOT

OUTCOME = "pytest passed with exit code 0 (4 passed)"
BEFORE = "def origins(raw):\n    return raw.split(',')\n"
AFTER = "def origins(raw):\n    return [o.strip() for o in raw.split(',')]\n"


def unified(before: str, after: str, path: str = "app/settings.py") -> str:
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), f"a/{path}", f"b/{path}"))


DIFF = unified(BEFORE, AFTER)
# The same change in a file with ten more lines above it: other hunk line numbers, same fix.
PAD = "".join(f"# line {i}\n" for i in range(10))
SHIFTED_DIFF = unified(PAD + BEFORE, PAD + AFTER)


@pytest.fixture(params=BACKENDS)
def target(request, tmp_path):
    return str(MEMORY_TARGETS[request.param][0](request, tmp_path))  # every backend (tests/conftest.py)


@pytest.fixture
def memory(target):
    with open_memory_store(target, HashEmbeddings(), setting="test memory") as opened:
        yield FixMemory(opened.store, min_score=0.05, floor=0.0)  # both calibrated for the hash embeddings


def confirm(memory, session, diff=DIFF, **overrides):
    args = dict(fix_description="strip whitespace around comma separated origins", error_type="AssertionError",
                file_paths=["app/settings.py"], outcome=OUTCOME, confirmed_outcome=OUTCOME,
                symptom="AssertionError: second origin rejected", diff=diff, session_id=session,
                project="corsgate", model="scripted")
    args.update(overrides)
    args.setdefault("project_id", f"test:{args['project']}")  # who the project is (workspace/identity.py)
    return memory.store_fix_memory(**args)


def test_the_same_fix_confirmed_again_is_one_record_with_a_growing_list(memory):
    first = confirm(memory, "s1", timestamp=datetime(2026, 1, 2, tzinfo=timezone.utc))
    second = confirm(memory, "s2", diff=SHIFTED_DIFF, model="openai:gpt-4.1-mini")
    assert second.memory_id == first.memory_id and memory.count() == 1
    record = memory.get(first.memory_id)
    assert [(c.session_id, c.model, c.outcome) for c in record.confirmations] == [
        ("s1", "scripted", OUTCOME), ("s2", "openai:gpt-4.1-mini", OUTCOME)]
    assert record.timestamp == datetime(2026, 1, 2, tzinfo=timezone.utc)  # the record's own, not the store's
    assert record.session_id == "s1" and record.updated_at > record.timestamp
    # The same session storing again (a resume after a crash) adds nothing.
    confirm(memory, "s2")
    assert len(memory.get(first.memory_id).confirmations) == 2


def test_different_fixes_of_the_same_symptom_stay_separate(memory):
    a = confirm(memory, "s1")
    b = confirm(memory, "s2", diff=unified(BEFORE, "def origins(raw):\n    return raw.replace(' ', '').split(',')\n"))
    c = confirm(memory, "s3", project="othergate")  # same diff, other project
    assert len({a.memory_id, b.memory_id, c.memory_id}) == 3 and memory.count() == 3


def test_concurrent_confirmations_from_threads_lose_none(memory):
    errors = []

    def worker(n):
        try:
            for i in range(4):
                confirm(memory, f"t{n}-{i}")
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    (record,) = list(memory.iter_records())
    assert len(record.confirmations) == 24


WRITER = """
import sys
from astra_memory.backends.open import open_memory_store
from astra_memory.stores.embeddings import HashEmbeddings
from astra_memory.stores.memory import FixMemory
from tests.test_confirmations import confirm
target, tag = sys.argv[1], sys.argv[2]
with open_memory_store(target, HashEmbeddings(), setting="test") as opened:
    memory = FixMemory(opened.store)
    for i in range(6):
        confirm(memory, f"{tag}-{i}")
"""


def test_concurrent_confirmations_from_processes_lose_none(target, memory):
    confirm(memory, "seed")  # the file/schema exists before the writers race on the record
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, target, f"p{n}"], cwd=ROOT, stderr=subprocess.PIPE,
                              text=True) for n in range(3)]
    errors = [p.communicate(timeout=240)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], errors
    (record,) = list(memory.iter_records())
    assert len(record.confirmations) == 1 + 18


def test_migration_merges_version_one_duplicates(memory):
    """Version-1 ids included the session: three sessions, three copies of one fix."""
    base = confirm(memory, "template")
    memory.delete(base.memory_id)
    for n, when in enumerate((5, 3, 9)):
        value = base.model_dump(mode="json")
        for key in ("confirmations", "confirmations_dropped", "status", "status_reason", "superseded_by"):
            value.pop(key)
        value.update(memory_id=f"00000000-0000-4000-8000-00000000000{n}", session_id=f"old-{n}", thread_id=f"old-{n}",
                     schema_version=1, timestamp=f"2026-01-0{when}T00:00:00+00:00", embed_text=base.embed_text)
        memory.store.put(NAMESPACE, value["memory_id"], value, index=["embed_text"])
    other = confirm(memory, "x", diff=unified(BEFORE, "def origins(raw):\n    return raw.split(', ')\n"))
    assert memory.count() == 4
    report = upgrade_memory(memory)
    assert (report.records_before, report.records_after, report.merged) == (4, 2, 2)
    merged = memory.get(base.memory_id)
    assert [c.session_id for c in merged.confirmations] == ["old-1", "old-0", "old-2"]
    assert merged.timestamp == datetime(2026, 1, 3, tzinfo=timezone.utc) and merged.schema_version == 2
    assert memory.get(other.memory_id) is not None
    hits = memory.search_codebase_memory("second origin rejected", min_score=-1, top_k=10)
    assert sorted(h.record.memory_id for h in hits) == sorted([base.memory_id, other.memory_id])
    assert upgrade_memory(memory).merged == 0  # idempotent


def test_migration_points_superseded_by_and_linked_fix_at_the_new_id(memory):
    """A later fix's `superseded_by` and a failed attempt's `linked_fix` named the version-1 id: after the
    upgrade they name the record that holds the fix now, not a deleted one."""
    base = confirm(memory, "template")
    memory.delete(base.memory_id)
    old_id = "00000000-0000-4000-8000-000000000007"
    value = base.model_dump(mode="json")
    for key in ("confirmations", "confirmations_dropped", "status", "status_reason", "superseded_by"):
        value.pop(key)
    value.update(memory_id=old_id, schema_version=1, embed_text=base.embed_text)
    memory.store.put(NAMESPACE, old_id, value, index=["embed_text"])
    older = confirm(memory, "y", diff=unified(BEFORE, "def origins(raw):\n    return raw.split(', ')\n"))
    memory.update_record(older.memory_id, status="superseded", superseded_by=old_id)
    attempts = memory.attempts
    attempt = attempts.record(project="corsgate", failing_tests=["t::a"], symptom="KeyError: 'x'", error_type="KeyError",
                              diff="--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n",
                              file_states={"m.py": ["a" * 64, "b" * 64]}, end="tests_failed", outcome="1 failed",
                              still_failing=["t::a"], newly_failing=[], session_id="s0")
    assert attempts.link(failing_tests=["t::a"], fix_id=old_id, project="corsgate") == [attempt.attempt_id]
    report = upgrade_memory(memory)
    assert (report.renamed, report.repointed) == (1, 2)
    assert memory.get(old_id) is None and memory.get(base.memory_id) is not None
    assert memory.get(older.memory_id).superseded_by == base.memory_id
    assert [a.attempt_id for a in attempts.linked_to(base.memory_id)] == [attempt.attempt_id]
    assert upgrade_memory(memory).repointed == 0  # idempotent


def test_cli_two_sessions_of_one_bug_are_one_record_and_show_lists_them():
    from tests.conftest import run_cli

    for tid in ("c-1", "c-2"):
        result = run_cli("run", "alpha", "--thread-id", tid)
        assert result.returncode == 0, result.stderr
    listing = json.loads(run_cli("memory", "list", "--json").stdout)
    assert len(listing) == 1
    assert [c["session_id"] for c in listing[0]["confirmations"]] == ["c-1", "c-2"]
    shown = run_cli("memory", "show", listing[0]["memory_id"])
    assert shown.returncode == 0 and "confirmations (2)" in shown.stdout
    assert "c-1" in shown.stdout and "c-2" in shown.stdout
    upgraded = run_cli("memory", "migrate", "--json")
    assert upgraded.returncode == 0, upgraded.stderr
    assert json.loads(upgraded.stdout)["upgrade"]["merged"] == 0
    assert run_cli("memory", "migrate", "--from", "x.sqlite").returncode == 2


def test_import_merges_confirmations_of_a_fix_memory_already_has(memory, tmp_path):
    from astra_memory.stores.transfer import import_jsonl

    record = confirm(memory, "s1")
    exported = tmp_path / "out.jsonl"
    exported.write_text(record.model_dump_json() + "\n")
    confirm(memory, "s2")
    assert import_jsonl(memory, exported) == 1
    assert [c.session_id for c in memory.get(record.memory_id).confirmations] == ["s1", "s2"]


def test_import_while_sessions_confirm_loses_no_confirmation(memory, tmp_path):
    """`memory import` merges under the records' locks: confirmations stored meanwhile survive."""
    from astra_memory.stores.transfer import import_jsonl

    record = confirm(memory, "s0")
    exported = tmp_path / "out.jsonl"
    exported.write_text(record.model_copy(update={"confirmations": [record.confirmations[0].model_copy(
        update={"session_id": "imported", "thread_id": "imported"})]}).model_dump_json() + "\n")
    errors = []

    def confirmer():
        try:
            for i in range(8):
                confirm(memory, f"live-{i}")
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    def importer():
        try:
            for _ in range(8):
                import_jsonl(memory, exported)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=confirmer), threading.Thread(target=importer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    sessions = {c.session_id for c in memory.get(record.memory_id).confirmations}
    assert sessions == {"s0", "imported", *(f"live-{i}" for i in range(8))}


def test_record_locks_stay_in_a_bounded_set_of_postgres_keys():
    """A whole-file import takes every record's lock at once; on PostgreSQL those are advisory locks,
    bounded by the shared lock table: the keys fall in LOCK_BUCKETS buckets, clear of the others."""
    import uuid

    from astra_memory.backends.postgres.store import LOCK_BUCKETS, RECORD_LOCK_BASE, advisory_key
    from astra_memory.costs.ledger_postgres import LEDGER_LOCK_KEY
    from astra_memory.db.postgres import SETUP_LOCK_KEY

    keys = {advisory_key(str(uuid.uuid4())) for _ in range(20_000)}
    assert len(keys) == LOCK_BUCKETS and not keys & {LEDGER_LOCK_KEY, SETUP_LOCK_KEY}
    assert all(-(1 << 63) <= k < (1 << 63) for k in keys)
    assert 0 <= advisory_key("not-a-uuid") - RECORD_LOCK_BASE < LOCK_BUCKETS  # any text maps to a bucket


def test_a_large_import_merges_under_the_locks(memory, tmp_path):
    """Thousands of records in one import (more locks than one bucket each): all stored, on both backends."""
    records = [confirm(memory, f"seed-{n}", diff=unified("a = 0\n", f"a = {n}\n", f"app/m{n}.py"),
                       file_paths=[f"app/m{n}.py"]) for n in range(3)]
    from astra_memory.stores.record import memory_id_of
    from astra_memory.stores.transfer import import_jsonl

    path = tmp_path / "many.jsonl"
    lines = [r.model_dump_json() for r in records]
    template = records[0]
    for n in range(3, 2_500):  # each its own fix: an id is its content's (import refuses any other)
        record = template.model_copy(update={
            "fix_description": f"fix {n}", "file_paths": [f"app/m{n}.py"],
            "diff": unified("a = 0\n", f"a = {n}\n", f"app/m{n}.py")})
        lines.append(record.model_copy(update={"memory_id": memory_id_of(record)}).model_dump_json())
    path.write_text("\n".join(lines) + "\n")
    assert import_jsonl(memory, path) == 2_500
    assert memory.count() == 2_500

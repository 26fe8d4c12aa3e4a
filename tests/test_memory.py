"""FixMemory conformance: every test here runs on a real SqliteStore file and on a real PostgresStore
(pgvector, HNSW) from tests/pg.py; deterministic embeddings, the model is not the point here.
The vector-table checks run on both: they prove each backend's delete and re-index leave exactly
one vector per record."""

import json
import subprocess
import sys
from datetime import datetime, timezone

import pytest

from astra_memory.backends.sqlite.store import open_sqlite_store
from astra_memory.errors import MemoryValidationError, UnconfirmedOutcomeError
from astra_memory.stores.embeddings import HashEmbeddings
from astra_memory.stores.format import NO_RESULTS, format_hits
from astra_memory.stores.memory import FIX_INDEX, NAMESPACE, FixMemory
from astra_memory.stores.transfer import import_jsonl
from tests.conftest import BACKENDS

OUTCOME = "pytest passed with exit code 0 (4 passed)"


@pytest.fixture(params=BACKENDS)
def memory(request, tmp_path):
    from astra_memory.backends.open import open_memory_store

    target = request.getfixturevalue("pg_url") if request.param == "postgres" else tmp_path / "memory.sqlite"
    with open_memory_store(target, HashEmbeddings(), setting="test memory") as opened:
        yield FixMemory(opened.store, min_score=0.05, floor=0.0)  # both calibrated for the hash embeddings


def store_fix(memory, fix="strip whitespace around comma separated origins", session="s1", **overrides):
    args = dict(fix_description=fix, error_type="AssertionError", file_paths=["app/settings.py"], outcome=OUTCOME,
                confirmed_outcome=OUTCOME, symptom="AssertionError: second origin rejected comma separated origins",
                diff=f"-a\n+{fix}\n", session_id=session, project="corsgate")
    args.update(overrides)
    return memory.store_fix_memory(**args)


def scalar(memory, query: str):
    """First column of the first row, on either backend's own vector table."""
    from langgraph.store.sqlite import SqliteStore

    if isinstance(memory.store, SqliteStore):
        return memory.store.conn.execute(query).fetchone()[0]
    with memory.store.conn.connection() as conn:  # PostgresStore on a psycopg pool (dict rows)
        return next(iter(conn.execute(query).fetchone().values()))


def vector_rows(memory) -> int:
    return scalar(memory, "SELECT count(*) FROM store_vectors")


PER_FIX = len(FIX_INDEX)  # vectors per fix: its symptom and fix, its cause without names (stores/mechanism.py)


def test_store_and_find_by_symptom(memory):
    record = store_fix(memory)
    hits = memory.search_codebase_memory("second origin rejected after comma")
    assert [h.record.memory_id for h in hits] == [record.memory_id]
    text = format_hits(hits)
    assert "[match 1] score=" in text and "DATA" in text and OUTCOME in text
    assert format_hits([]) == NO_RESULTS


def test_storing_the_same_fix_twice_updates_instead_of_duplicating(memory):
    first = store_fix(memory)
    second = store_fix(memory)
    assert first.memory_id == second.memory_id
    assert memory.count() == 1 and vector_rows(memory) == PER_FIX
    # Another session confirming the same fix is a confirmation of this record, not a new one.
    again = store_fix(memory, session="s2")
    assert again.memory_id == first.memory_id and memory.count() == 1 and vector_rows(memory) == PER_FIX
    assert [c.session_id for c in memory.get(first.memory_id).confirmations] == ["s1", "s2"]
    assert store_fix(memory, fix="another fix", session="s2").memory_id != first.memory_id


def test_timestamps_are_the_records_own_across_overwrites(memory):
    """SqliteStore resets created_at on overwrite; the record keeps its first-confirmed time."""
    first = store_fix(memory, timestamp=datetime(2026, 1, 2, tzinfo=timezone.utc))
    store_fix(memory, timestamp=datetime(2026, 5, 6, tzinfo=timezone.utc))
    again = memory.get(first.memory_id)
    assert again.timestamp == datetime(2026, 1, 2, tzinfo=timezone.utc)
    assert again.updated_at > again.timestamp


def test_deleted_records_never_come_back_from_search(memory):
    """SqliteStore.delete leaves the vector row behind; the service removes it."""
    record = store_fix(memory)
    assert memory.delete(record.memory_id)
    assert vector_rows(memory) == 0
    assert memory.search_codebase_memory("second origin rejected", min_score=-1) == []
    # A raw re-put without re-indexing (what SqliteStore does with index=False) must not revive the old vector.
    memory.store.put(NAMESPACE, record.memory_id, record.to_store_value(), index=False)
    assert memory.search_codebase_memory("second origin rejected", min_score=-1) == []
    assert not memory.delete("no-such-id")


def test_reindex_on_update_replaces_the_vector(memory):
    record = store_fix(memory)
    changed = record.model_copy(update={"symptom": "ZeroDivisionError in invoice totals"})
    memory.put_record(changed)
    assert vector_rows(memory) == PER_FIX
    hits = memory.search_codebase_memory("ZeroDivisionError invoice totals", min_score=-1)
    assert hits[0].record.memory_id == record.memory_id and hits[0].score > 0.5


def test_the_embedded_field_is_symptom_plus_fix_not_the_whole_record(memory):
    """SqliteStore 3.1.x ignores `fields`; without care it would embed the whole JSON value."""
    store_fix(memory)
    # Two fields (stores/mechanism.py): the symptom and fix, and the cause without names; nothing else.
    assert sorted(FIX_INDEX) == ["cause_text", "embed_text"] and vector_rows(memory) == 2
    assert scalar(memory, "SELECT count(*) FROM store_vectors WHERE field_name IN ('embed_text', 'cause_text')") == 2


@pytest.mark.parametrize("overrides, match", [
    ({"fix_description": "  "}, "fix_description"),
    ({"error_type": ""}, "error_type"),
    ({"file_paths": "app/settings.py"}, "not one string"),
    ({"file_paths": []}, "file_paths"),
    ({"timestamp": datetime(2026, 1, 1)}, "timezone"),
    ({"symptom": "x" * 5000}, "symptom"),
])
def test_invalid_records_are_refused(memory, overrides, match):
    with pytest.raises(MemoryValidationError, match=match):
        store_fix(memory, **overrides)
    assert memory.count() == 0


def test_unconfirmed_outcomes_are_refused(memory):
    with pytest.raises(UnconfirmedOutcomeError):
        store_fix(memory, outcome="pytest passed with exit code 0 (5 passed)")
    with pytest.raises(UnconfirmedOutcomeError):
        store_fix(memory, confirmed_outcome=None)
    assert memory.count() == 0


def test_secrets_are_scrubbed_from_every_stored_field(memory):
    record = store_fix(memory, fix="rotate key sk-proj-abcdefghijklmnopqrstuvwx; db postgresql://u:hunter22@db/x",
                       diff="+headers = {'Authorization': 'Bearer abcdefghijk123'}\n")
    stored = json.dumps(memory.get(record.memory_id).model_dump(mode="json"))
    for secret in ("sk-proj-abcdefghijklmnopqrstuvwx", "hunter22", "abcdefghijk123"):
        assert secret not in stored


@pytest.mark.parametrize("kwargs", [{"top_k": 0}, {"top_k": 11}, {"top_k": "3"}])
def test_search_arguments_are_validated(memory, kwargs):
    with pytest.raises(MemoryValidationError):
        memory.search_codebase_memory("query", **kwargs)
    with pytest.raises(MemoryValidationError):
        memory.search_codebase_memory("   ")


def test_error_type_filter_and_min_score(memory):
    store_fix(memory)
    store_fix(memory, fix="divide by zero guard", error_type="ZeroDivisionError", session="s3",
              symptom="ZeroDivisionError: division by zero in totals")
    hits = memory.search_codebase_memory("division by zero", error_type="ZeroDivisionError", top_k=10, min_score=-1)
    assert {h.record.error_type for h in hits} == {"ZeroDivisionError"}
    assert memory.search_codebase_memory("completely unrelated words here", min_score=0.99) == []


def test_import_is_all_or_nothing(memory, tmp_path):
    good = store_fix(memory).model_dump_json()
    memory.delete(json.loads(good)["memory_id"])
    path = tmp_path / "in.jsonl"
    path.write_text(good + "\n{not json\n" + json.dumps({"memory_id": "x"}) + "\n")
    with pytest.raises(MemoryValidationError) as info:
        import_jsonl(memory, path)
    assert "line 2" in str(info.value) and "line 3" in str(info.value)
    assert memory.count() == 0
    path.write_text(good + "\n")
    assert import_jsonl(memory, path) == 1 and memory.count() == 1


WRITER = """
import sys
from astra_memory.stores.embeddings import HashEmbeddings
from astra_memory.stores.memory import FixMemory
from astra_memory.backends.sqlite.store import open_sqlite_store
path, tag = sys.argv[1], sys.argv[2]
O = "pytest passed with exit code 0 (1 passed)"
with open_sqlite_store(path, HashEmbeddings()) as store:
    m = FixMemory(store, min_score=-1)
    for i in range(40):
        m.store_fix_memory(f"fix {tag} {i}", "AssertionError", ["a.py"], O, confirmed_outcome=O,
                           symptom=f"symptom {tag} {i}", diff="", session_id=f"{tag}-{i}")
        m.search_codebase_memory(f"symptom {tag}", top_k=3)
"""


def test_two_processes_store_and_search_one_file_without_locking_errors(tmp_path):
    path = tmp_path / "shared.sqlite"
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag], stderr=subprocess.PIPE, text=True)
             for tag in ("p1", "p2")]
    errors = [p.communicate(timeout=180)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors
    assert not any("locked" in e for e in errors)
    with open_sqlite_store(path, HashEmbeddings()) as store:
        memory = FixMemory(store)
        assert memory.count() == 80
        assert store.conn.execute("SELECT count(*) FROM store_vectors").fetchone()[0] == 80 * PER_FIX


def test_search_fuses_the_vector_order_with_bm25(memory):
    # Bag-of-words vectors favour the record repeating a common query word ("value"); BM25 favours
    # the ones sharing the query's rarer words ("zanzibar", "cache"). Vector order: common (0.516),
    # rare (0.471), other (0.375); fused (0.9 cosine + 0.1 BM25 / best, stores/hybrid.py): rare gets
    # the whole lexical share and passes common, whose cosine is only 0.045 higher; other stays third.
    # Two unrelated records keep BM25's IDF positive for words in two records.
    symptoms = {"common": "KeyError value value value",
                "rare": "KeyError value zanzibar lookup table stale cache entry after reload of settings file",
                "other": "KeyError value cache miss after restart of the worker pool process",
                "division": "ZeroDivisionError division by zero in invoice totals",
                "operand": "TypeError unsupported operand types for plus"}
    for session, symptom in symptoms.items():
        store_fix(memory, fix=f"fix {session}", session=session, symptom=symptom)
    query = "KeyError value zanzibar cache"
    vector_only = FixMemory(memory.store, min_score=-1, hybrid=False).search_codebase_memory(query)
    fused = FixMemory(memory.store, min_score=-1).search_codebase_memory(query)
    assert [h.record.session_id for h in vector_only] == ["common", "rare", "other"]
    assert [h.record.session_id for h in fused] == ["rare", "common", "other"]
    # Each hit keeps its cosine score (what the minimum score is calibrated on); top_k cuts the fused order.
    assert {h.record.session_id: h.score for h in fused} == {h.record.session_id: h.score for h in vector_only}
    top1 = FixMemory(memory.store, min_score=-1).search_codebase_memory(query, top_k=1)
    assert [h.record.session_id for h in top1] == ["rare"]

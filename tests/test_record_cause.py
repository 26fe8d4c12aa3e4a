"""Records carry their cause (issue 26 part 2): the fixing session's diagnosis is stored with the fix
and a diagnosis search matches its words against causes; a record without one (written before, imported,
replayed) falls back to its error type and fix description. Real SQLite store, deterministic embeddings."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from astra_memory.backends.sqlite.store import open_sqlite_store
from astra_memory.stores.embeddings import HashEmbeddings
from astra_memory.stores.mechanism import mechanism_text
from astra_memory.stores.memory import FixMemory, merge_records
from astra_memory.stores.record import FixRecord, validate_record

OUTCOME = "1 of 1 failing tests now pass; 4 passed, 0 failed"
CASEFOLD = {"error_type": "AssertionError", "files": ["app/search.py"],
            "cause": "names are compared after str.lower, which does not fold the German sharp s; use casefold"}


@pytest.fixture
def memory(tmp_path):
    with open_sqlite_store(tmp_path / "memory.sqlite", HashEmbeddings()) as store:
        yield FixMemory(store, min_score=-1)


def store(memory, session, *, symptom, fix, diagnosis=None, error_type="AssertionError"):
    return memory.store_fix_memory(
        fix_description=fix, error_type=error_type, file_paths=["app/search.py"], outcome=OUTCOME,
        confirmed_outcome=OUTCOME, symptom=symptom, diff="", session_id=session, project=session,
        diagnosis=diagnosis)


def test_the_diagnosis_is_stored_and_read_back(memory):
    record = store(memory, "s1", symptom="AssertionError: assert 'weiß' == 'weiss'", fix="Fold search keys",
                   diagnosis=CASEFOLD)
    again = memory.get(record.memory_id)
    assert again.diagnosis is not None and again.diagnosis.model_dump() == CASEFOLD
    assert again.cause_text == f"AssertionError: {CASEFOLD['cause']}"
    # Stored for the diagnosis search: the cause without the project's names (stores/mechanism.py).
    assert memory.store.get(memory.namespace, record.memory_id).value["cause_text"] == mechanism_text(again.cause_text)


def test_a_diagnosis_is_matched_against_causes_not_symptoms(memory):
    # The decoy is the nearer vector (its symptom and fix share the query's words); only the other record
    # has that cause. The cause's words have a tenth of the fused score (stores/hybrid.py): they decide
    # between near neighbours like these, not across a wide gap.
    decoy = store(memory, "decoy", symptom="AssertionError: assert 'Weiss' in []",
                  fix="Strip whitespace around names before they are compared",
                  diagnosis={"error_type": "AssertionError", "cause": "names keep surrounding whitespace",
                             "files": ["app/names.py"]})
    right = store(memory, "right", symptom="AssertionError: assert 'STRASSE' in []",
                  fix="Compare folded keys", diagnosis=CASEFOLD)
    for n, words in enumerate(["timeout parsed as minutes", "port read from the wrong variable",
                               "rounding half down", "list reused between calls"]):  # BM25 needs a few documents
        store(memory, f"other-{n}", symptom=f"AssertionError: {words}", fix=f"Fix {words}",
              diagnosis={"error_type": "AssertionError", "cause": words, "files": []})
    query = f"AssertionError: {CASEFOLD['cause']}"
    by_cause = [h.record.memory_id for h in memory.search_codebase_memory(query, against="cause", top_k=2)]
    assert by_cause[0] == right.memory_id and decoy.memory_id != right.memory_id


def test_a_record_without_a_cause_falls_back_to_its_fix(memory):
    old = store(memory, "old", symptom="KeyError: 'Audit-Log'", error_type="KeyError",
                fix="look header names up case-insensitively")
    value = memory.store.get(memory.namespace, old.memory_id).value
    assert "diagnosis" not in value  # stored without the key: the previous version still reads it
    assert value["cause_text"] == "look header names up case-insensitively"  # without the error type
    hits = memory.search_codebase_memory("KeyError: header names looked up case-sensitively", against="cause")
    assert [h.record.memory_id for h in hits] == [old.memory_id]
    del value["cause_text"]  # a value written before the field: read from the record's fields
    assert FixRecord.from_store_value(value).cause_text == value_cause(value)


def value_cause(value):
    from astra_memory.stores.record import cause_text_of

    return cause_text_of(value)


def test_a_confirmation_without_a_diagnosis_keeps_the_stored_one(memory):
    first = store(memory, "s1", symptom="AssertionError: x", fix="Fold search keys", diagnosis=CASEFOLD)
    replayed = first.model_copy(update={"diagnosis": None, "timestamp": datetime.now(timezone.utc)})
    assert merge_records(first, replayed).diagnosis == first.diagnosis
    assert merge_records(replayed, first, keep_existing=True).diagnosis == first.diagnosis


def test_a_diagnosis_without_a_cause_is_refused():
    data = store_value_with({"error_type": "AssertionError", "cause": "", "files": []})
    with pytest.raises(Exception, match="diagnosis.cause"):
        validate_record(data)


def store_value_with(diagnosis):
    now = datetime.now(timezone.utc)
    return {"memory_id": "00000000-0000-0000-0000-000000000000", "symptom": "s", "error_type": "E",
            "file_paths": ["a.py"], "fix_description": "f", "outcome": OUTCOME, "timestamp": now, "updated_at": now,
            "session_id": "s", "thread_id": "s", "diagnosis": diagnosis}


def test_a_session_stores_its_diagnosis_with_the_fix_and_a_replay_keeps_it(agent, settings):
    from astra_memory.scenarios import load_scenario
    from astra_memory.session.run import start_session
    from tests.helpers import task_with_script

    final = start_session(agent, task_with_script(settings, "t-cause-1"))  # alpha's scripted solution
    assert final["status"] == "fixed"
    record = agent.memory.get(final["stored_memory_id"])
    stated = load_scenario("alpha").diagnosis
    assert record.diagnosis is not None and record.diagnosis.cause == " ".join(stated["cause"].split())
    assert record.diagnosis.files == stated["files"]
    again = start_session(agent, task_with_script(settings, "t-cause-2"))  # replays it: no diagnosis stated
    assert again["replay"]["replayed"] == record.memory_id
    assert agent.memory.get(record.memory_id).diagnosis == record.diagnosis


def test_a_weak_list_shows_nothing_and_says_so(tmp_path):
    """At the default rule (min score 0.15, fused floor 0.35) a query that matches no record well gets
    no hits, and the model reads that there is no confident match, not three fixes for other causes."""
    from astra_memory.stores.format import format_hits

    with open_sqlite_store(tmp_path / "memory.sqlite", HashEmbeddings()) as opened:
        memory = FixMemory(opened)
        for n, words in enumerate(["timeout parsed as minutes", "port read from the wrong variable",
                                   "rounding half down", "list reused between calls"]):
            store(memory, f"other-{n}", symptom=f"AssertionError: {words}", fix=f"Fix {words}")
        cosine_only = FixMemory(opened, hybrid=False)  # the rule before: top 3 at the minimum cosine score
        weak = "AssertionError: unexpected"  # shares the error type with every record, nothing else
        assert len(cosine_only.search_codebase_memory(weak)) == 3
        assert memory.search_codebase_memory(weak) == []
        assert format_hits([]).startswith("No confident match")
        one_near = "AssertionError: calls"  # one near record (cosine 0.46), two far ones (0.15-0.17)
        assert len(cosine_only.search_codebase_memory(one_near)) == 3
        # 0.46 is not enough for a match by meaning alone (stores/confidence.py: 0.50 at the default floor)
        assert memory.search_codebase_memory(one_near) == []
        close = "AssertionError: list reused between calls"
        assert [h.record.session_id for h in memory.search_codebase_memory(close)] == ["other-3"]

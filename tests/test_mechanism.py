"""A diagnosis is matched with causes without the project's names (stores/mechanism.py): the text, the
second vector every fix is stored with, and what it changes for a diagnosis search on MiniLM."""

from __future__ import annotations

import pytest

from astra_memory.backends.sqlite.store import open_sqlite_store
from astra_memory.stores.embeddings import HashEmbeddings, MiniLMEmbeddings
from astra_memory.stores.mechanism import CAUSE_FIELD, mechanism_text
from astra_memory.stores.memory import NAMESPACE, FixMemory
from astra_memory.stores.record import FixRecord, diagnosis_text, memory_id_of
from astra_memory.stores.store_needs import EMBEDDED_FIELD

OUTCOME = "pytest passed with exit code 0 (12 passed)"


def test_names_values_and_numbers_go_and_the_mechanism_stays():
    text = mechanism_text("AssertionError: Version.compare called _cmp(v2, v1) with the operands swapped, "
                          "so '1.0.0' > \"2.0.0\" and `cmp` returned 1 for semver 3.0.2")
    assert text == "called with the operands swapped, so > and returned for semver"
    # An apostrophe inside a word is not a quote: the words after it stay.
    assert mechanism_text("the module's loop isn't reached") == "the module's loop isn't reached"
    assert mechanism_text("TypeError: getTotal and OrderedDict and snake_case") == "and and"
    # Nothing but names: the cause itself, rather than an empty text to embed.
    assert mechanism_text("KeyError: config.get_value()") == "KeyError: config.get_value()"


def test_hostile_text_is_bounded_and_linear():
    # RE2: no backtracking on unclosed calls; the input is cut to a bounded length first.
    text = mechanism_text("f(" * 200_000 + " the loop returns early")
    assert len(text) <= 4_000 and "loop returns early" not in text


def _fix(memory: FixMemory, project: str, cause: str, symptom: str, fix: str, name: str):
    return memory.store_fix_memory(
        fix, "AssertionError", [f"{project}/core.py"], OUTCOME, confirmed_outcome=OUTCOME, symptom=symptom,
        diff=f"--- a/{project}/core.py\n+++ b/{project}/core.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n",
        session_id=name, project=project, project_id=f"git:{project}",
        diagnosis={"error_type": "AssertionError", "cause": cause, "files": []})


def test_every_fix_has_two_vectors_and_an_old_record_is_still_found(tmp_path):
    with open_sqlite_store(tmp_path / "memory.sqlite", HashEmbeddings()) as store:
        memory = FixMemory(store, min_score=-1)
        record = _fix(memory, "shop", "the total is rounded before the tax is added",
                      "AssertionError: assert 10.5 == 10.0", "Round after adding the tax.", "s1")
        fields = sorted(row[0] for row in store.conn.execute(
            "SELECT field_name FROM store_vectors WHERE key = ?", (record.memory_id,)))
        assert fields == sorted([EMBEDDED_FIELD, CAUSE_FIELD])
        value = store.get(NAMESPACE, record.memory_id).value
        assert value[CAUSE_FIELD] == "the total is rounded before the tax is added"
        # The value's keys are the ones the previous version reads, so it still reads this record
        # (a team may upgrade one machine at a time): its fields and the three it drops on reading
        # (diff_sha256 since d55e566, which read it and did not write it yet).
        assert set(value) - set(FixRecord.model_fields) == {"embed_text", "cause_text", "diff_sha256"}
        # A record the previous version wrote: one vector, its whole cause in cause_text.
        old = record.model_copy(update={"diagnosis": None, "diff": record.diff.replace("+x = 2", "+x = 3")})
        old = old.model_copy(update={"memory_id": memory_id_of(old)})  # under its content's id, as it was stored
        value = {**old.to_store_value(), CAUSE_FIELD: old.cause_text}
        store.put(NAMESPACE, old.memory_id, value, index=[EMBEDDED_FIELD])
        hits = memory.search_codebase_memory(diagnosis_text("AssertionError", "Round after adding the tax"),
                                             against="cause", top_k=5)
        assert old.memory_id in [h.record.memory_id for h in hits]


@pytest.fixture(scope="module")
def minilm():
    return MiniLMEmbeddings()


def test_a_diagnosis_finds_the_same_kind_of_bug_in_another_project_first(tmp_path, minilm):
    """The own project's fix of another bug shares every name with the diagnosis; the other project's
    fix of the same kind of bug shares none. Matched without names, the kind of bug wins."""
    with open_sqlite_store(tmp_path / "memory.sqlite", minilm) as store:
        memory = FixMemory(store, min_score=-1)
        own = _fix(memory, "semver", "Version.bump_prerelease defaulted its token to 'alpha' instead of 'rc'",
                   "AssertionError: assert Version.parse('1.0.0').bump_prerelease() == '1.0.1-rc.1'",
                   "Version.bump_prerelease: default token 'rc'.", "own")
        same_kind = _fix(memory, "colors", "names() had its return statement inside the for loop, so it returned "
                         "after the first key and never looked at the rest",
                         "AssertionError: assert names() == ['aqua', 'black', 'blue']",
                         "Dedent the return out of the loop.", "other")
        query = diagnosis_text("AssertionError", "Version.compare_prerelease likely returns inside the loop "
                               "after comparing the first identifier of Version.prerelease, instead of going on")
        hits = memory.search_codebase_memory(query, against="cause", top_k=2, project_id="git:semver")
        assert [h.record.memory_id for h in hits] == [same_kind.memory_id, own.memory_id]

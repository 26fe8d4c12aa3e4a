"""Filtered searches on the SQLite memory (``error_type=...``) go the numpy way too, among the rows
SqliteStore's own filter keeps: the same rows and scores as SqliteStore on good data, and a stored
vector of the wrong length is skipped and named by every search, filtered or not (attack case B13:
the filtered search raised "Vector dimension mismatch" while the unfiltered one hid the row)."""

from __future__ import annotations

import pytest

from astra_memory.backends.sqlite.store import open_sqlite_store
from astra_memory.stores.embeddings import DIMS, HashEmbeddings
from astra_memory.stores.memory import FixMemory
from tests.test_sqlite_search import (
    NS,
    QUERIES,
    SeededEmbeddings,
    plain,
    put,
    rows,
    same_as_sqlitestore,
)

FILTERS = [{"error_type": "TypeError"}, {"error_type": "AssertionError"}, {"error_type": {"$ne": "TypeError"}}]


def _cut_vector(store, key: str, keep: str = "length(embedding) - 4") -> None:
    """One record's stored vectors (a fix has two: stores/mechanism.py) one float short (or ``keep`` bytes
    long), as a hand edit of the file leaves them."""
    with store._cursor(transaction=True) as cur:
        cur.execute(f"UPDATE store_vectors SET embedding = substr(embedding, 1, {keep}) WHERE key = ?", (key,))
        assert cur.rowcount >= 1


@pytest.mark.parametrize("filter_", FILTERS, ids=["eq", "eq-other", "ne"])
def test_a_filtered_search_returns_what_sqlitestore_returns(tmp_path, filter_):
    with open_sqlite_store(tmp_path / "memory.sqlite", SeededEmbeddings()) as store:
        put(store, 200)
        put(store, 20, namespace=(*NS, "sub"), start=1000)
        put(store, 20, namespace=("astra-ns", "other"), start=2000)
        same_as_sqlitestore(store, filter=filter_)
        same_as_sqlitestore(store, namespace=(*NS, "sub"), filter=filter_)
        assert store.search(NS, query=QUERIES[0], limit=5, filter={"error_type": "NoSuchError"}) == []
        assert plain(store).search(NS, query=QUERIES[0], limit=5, filter={"error_type": "NoSuchError"}) == []


def test_a_vector_of_the_wrong_length_is_skipped_by_filtered_and_unfiltered_searches_alike(tmp_path):
    with open_sqlite_store(tmp_path / "memory.sqlite", SeededEmbeddings()) as store:
        put(store, 60)
        target = store.get(NS, "k5").value  # error_type AssertionError
        query = target["embed_text"]  # k5 is the best match of this query
        assert store.search(NS, query=query, limit=1)[0].key == "k5"
        _cut_vector(store, "k5")
        found = {}
        for name, filter_ in (("all", None), ("filtered", {"error_type": target["error_type"]})):
            found[name] = store.search(NS, query=query, limit=10, filter=filter_)  # was: OperationalError
            assert found[name] and "k5" not in {item.key for item in found[name]}
        assert store.skipped_vectors(NS) == [(".".join(NS), "k5", (DIMS * 4 - 4) / 4)]
        # Without the bad vector, SqliteStore's own searches return exactly these rows and scores.
        with store._cursor(transaction=True) as cur:
            cur.execute("DELETE FROM store_vectors WHERE key = 'k5'")
        ref = plain(store)
        assert rows(found["all"]) == rows(ref.search(NS, query=query, limit=10))
        assert rows(found["filtered"]) == rows(ref.search(NS, query=query, limit=10,
                                                          filter={"error_type": target["error_type"]}))


def test_the_memory_names_a_fix_whose_vector_it_skips_and_a_new_store_embeds_it_again(tmp_path):
    diff = "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
    with open_sqlite_store(tmp_path / "memory.sqlite", HashEmbeddings()) as store:
        def stored() -> str:
            return FixMemory(store).store_fix_memory(
                "Set x to 2.", "AssertionError", ["m.py"], "1 passed", confirmed_outcome="1 passed",
                symptom="AssertionError: assert x == 2", diff=diff, session_id="s1").memory_id

        fix_id = stored()
        _cut_vector(store, fix_id)
        memory = FixMemory(store)
        for error_type in (None, "AssertionError"):
            assert memory.search_codebase_memory("AssertionError: assert x == 2", error_type=error_type,
                                                 min_score=-1.0) == []
        assert f"{DIMS - 1} dimensions, not {DIMS} dimensions" in memory.damaged[fix_id]
        _cut_vector(store, fix_id, keep="3")  # not a whole float32 (outside round 9 case 07: "0.75 dimensions")
        cut = FixMemory(store)
        assert cut.search_codebase_memory("AssertionError: assert x == 2", min_score=-1.0) == []
        assert f"its stored vector is 3 bytes (not whole 4-byte values), not {DIMS} dimensions" in cut.damaged[fix_id]
        assert stored() == fix_id  # the same fix again: written and embedded again
        again = FixMemory(store)
        hits = again.search_codebase_memory("AssertionError: assert x == 2", error_type="AssertionError", min_score=-1.0)
        assert [h.record.memory_id for h in hits] == [fix_id] and again.damaged == {}

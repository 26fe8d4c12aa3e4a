"""The SQLite memory's search with candidates chosen in numpy (backends/sqlite/search.py) returns what
LangGraph's own SqliteStore returns, row for row and score for score, on real files: a memory written
by the previous version (a plain SqliteStore), sub-namespaces, filters, records written afterwards by
this connection or by another process's connection, deleted records and orphaned vectors."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings
from langgraph.store.sqlite import SqliteStore

from astra_memory.backends.sqlite.search import MatrixSqliteStore
from astra_memory.backends.sqlite.store import connect, index_config, open_sqlite_store
from astra_memory.stores.embeddings import DIMS

NS = ("astra", "fixes")
QUERIES = [f"query {i}: TypeError in module {i % 7}" for i in range(12)]


class SeededEmbeddings(Embeddings):
    """A dense unit vector per text, seeded by its hash: no ties, no model (the model is not the point)."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        out = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            vector = np.random.default_rng(seed).normal(size=DIMS)
            out.append((vector / np.linalg.norm(vector)).tolist())
        return out

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def put(store, count: int, *, namespace=NS, start: int = 0, error_type: str = "AssertionError") -> None:
    for i in range(start, start + count):
        store.put(namespace, f"k{i}", {"embed_text": f"record {i}: failure number {i * 13 % 97}",
                                       "error_type": error_type if i % 3 else "TypeError"},
                  index=["embed_text"])


def plain(store) -> SqliteStore:
    """LangGraph's SqliteStore on the same connection: the reference."""
    ref = SqliteStore(store.conn, index=index_config(SeededEmbeddings()))
    ref.is_setup = True
    return ref


def rows(items) -> list[tuple]:
    return [(item.namespace, item.key, item.score, item.value) for item in items]


def same_as_sqlitestore(store, queries=QUERIES, **kwargs) -> None:
    ref = plain(store)
    for query in queries:
        for limit, offset in ((1, 0), (3, 0), (10, 2), (40, 0)):
            got = store.search(kwargs.get("namespace", NS), query=query, limit=limit, offset=offset,
                               filter=kwargs.get("filter"))
            want = ref.search(kwargs.get("namespace", NS), query=query, limit=limit, offset=offset,
                              filter=kwargs.get("filter"))
            assert rows(got) == rows(want), (query, limit, offset)
            assert got or offset, "every search here has something to find"


@pytest.fixture
def written_by_previous_version(tmp_path):
    """A memory file written by LangGraph's plain SqliteStore, as every version before this one did."""
    path = tmp_path / "memory.sqlite"
    conn = connect(path)
    old = SqliteStore(conn, index=index_config(SeededEmbeddings()))
    old.setup()
    put(old, 300)
    put(old, 20, namespace=(*NS, "sub"), start=1000)  # a sub-namespace: found by a prefix search
    put(old, 20, namespace=("astra-ns", "other"), start=2000)  # another namespace: never found
    conn.close()
    return path


@pytest.mark.parametrize("read_only", [True, False])
def test_a_previous_versions_memory_is_searched_exactly_as_sqlitestore_searches_it(written_by_previous_version,
                                                                                     read_only):
    with open_sqlite_store(written_by_previous_version, SeededEmbeddings(), read_only=read_only) as store:
        assert isinstance(store, MatrixSqliteStore)
        same_as_sqlitestore(store)
        same_as_sqlitestore(store, namespace=(*NS, "sub"))
        same_as_sqlitestore(store, namespace=("astra-ns",))
        assert not {item.namespace for item in store.search(NS, query=QUERIES[0], limit=40)} - {NS, (*NS, "sub")}
        # Where the matrix is not used (a filter on the value), SqliteStore's own query answers.
        same_as_sqlitestore(store, filter={"error_type": "TypeError"})


def test_writes_by_this_connection_and_by_another_are_searched_at_once(written_by_previous_version):
    embeddings = SeededEmbeddings()
    with open_sqlite_store(written_by_previous_version, embeddings) as store:
        target = "the new record nobody has seen"
        store.search(NS, query=target, limit=3)  # the matrix is loaded here
        store.put(NS, "new", {"embed_text": target}, index=["embed_text"])  # this connection
        assert store.search(NS, query=target, limit=1)[0].key == "new"
        with open_sqlite_store(written_by_previous_version, embeddings) as other:  # another connection
            other.put(NS, "other", {"embed_text": "written elsewhere"}, index=["embed_text"])
        assert store.search(NS, query="written elsewhere", limit=1)[0].key == "other"
        store.delete(NS, "other")  # SqliteStore leaves the vector behind: an orphan, never returned
        assert "other" not in {item.key for item in store.search(NS, query="written elsewhere", limit=40)}
        same_as_sqlitestore(store, queries=[target, "written elsewhere", *QUERIES[:3]])


def test_an_empty_memory_and_one_smaller_than_the_limit(tmp_path):
    with open_sqlite_store(tmp_path / "memory.sqlite", SeededEmbeddings()) as store:
        assert store.search(NS, query="anything", limit=3) == []
        put(store, 2)
        same_as_sqlitestore(store, queries=["anything"])
        assert len(store.search(NS, query="anything", limit=10)) == 2

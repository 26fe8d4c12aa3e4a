"""Fix memory on a live Actian VectorAI DB. Runs only when ACTIAN_VECTORAI_URL is set (its server
runs only in Docker, which these machines lack); skipped otherwise. Nothing here fakes the server.
"""

from __future__ import annotations

import os
import uuid

import pytest

from astra_memory.stores.embeddings import HashEmbeddings
from astra_memory.stores.memory import FixMemory

OUTCOME = "pytest passed with exit code 0 (4 passed)"
URL = os.environ.get("ACTIAN_VECTORAI_URL")  # read before the autouse fixture scrubs the environment


@pytest.mark.skipif(not URL, reason="ACTIAN_VECTORAI_URL is not set: no VectorAI DB server to test against")
def test_fix_memory_on_a_live_vectorai_db():
    pytest.importorskip("actian_vectorai", reason="pip install 'astra-codebase-memory[actian]'")
    from astra_memory.backends.actian.store import open_actian_store

    collection = f"astra_codebase_memory_test_{uuid.uuid4().hex[:8]}"
    with open_actian_store(HashEmbeddings(), URL, collection=collection) as store:
        try:
            memory = FixMemory(store, min_score=0.05, floor=0.0)
            args = dict(error_type="AssertionError", file_paths=["app/settings.py"], outcome=OUTCOME,
                        confirmed_outcome=OUTCOME, symptom="AssertionError: second origin rejected comma separated",
                        diff="-a\n+b\n", session_id="s1", project="corsgate")
            first = memory.store_fix_memory("strip whitespace around comma separated origins", **args)
            assert memory.store_fix_memory("strip whitespace around comma separated origins", **args).memory_id \
                == first.memory_id and memory.count() == 1  # a repeated store upserts
            other = memory.store_fix_memory("guard the division", **{**args, "error_type": "ZeroDivisionError",
                                                                      "session_id": "s2",
                                                                      "symptom": "ZeroDivisionError in totals"})
            hits = memory.search_codebase_memory("second origin rejected after comma")
            assert hits[0].record.memory_id == first.memory_id and 0.0 < hits[0].score <= 1.0
            filtered = memory.search_codebase_memory("division", error_type="ZeroDivisionError", min_score=-1)
            assert [h.record.memory_id for h in filtered] == [other.memory_id]
            assert memory.delete(first.memory_id) and memory.get(first.memory_id) is None
            assert first.memory_id not in [h.record.memory_id for h in
                                           memory.search_codebase_memory("second origin rejected", min_score=-1)]
        finally:
            store.client.collections.delete(collection)


def test_astra_vectorai_url_selects_the_vectorai_memory(monkeypatch, tmp_path):
    """One setting picks the backend: with ASTRA_VECTORAI_URL set, the memory is opened on VectorAI DB
    (here nothing listens, so it fails clearly; without the extra it names the extra), never SQLite."""
    from astra_memory.backends.open import open_backend
    from astra_memory.errors import ConfigurationError
    from astra_memory.settings import Settings

    monkeypatch.setenv("ASTRA_VECTORAI_URL", "127.0.0.1:9")
    settings = Settings(home=tmp_path / "home")
    assert settings.vectorai_url == "127.0.0.1:9"
    with pytest.raises(ConfigurationError) as info:
        with open_backend(settings, HashEmbeddings(), checkpointer=False):
            pass
    assert ("astra-codebase-memory[actian]" in str(info.value)
            or "cannot reach Actian VectorAI DB at 127.0.0.1:9 (set by ASTRA_VECTORAI_URL)" in str(info.value))
    assert not (tmp_path / "home" / "memory.sqlite").exists()

"""`bench recurring` end to end on one family (hash embeddings: the model is not the point here)."""

from astra_memory.bench.recurring import run_recurring, write_recurring


def test_the_same_bug_again_costs_no_model_request_only_with_replay(tmp_path):
    result = run_recurring(tmp_path / "data", embeddings="hash", families=["split-whitespace"])
    (family,) = result["families"]
    rows = family["modes"]
    assert all(r["status"] == "fixed" and r["original_tests_passed"] for mode in rows.values() for r in mode)
    again = {mode: rows[mode][1] for mode in rows}  # session 2: the same bug in a changed copy
    assert again["memory_replay"]["model_requests"] == 0 and again["memory_replay"]["replayed_memory_id"]
    assert again["memory_on"]["model_requests"] > 0 and again["memory_on"]["replayed_memory_id"] is None
    assert again["memory_off"]["memory_hits"] == 0 and again["memory_on"]["memory_hits"] >= 1
    written = write_recurring(result, tmp_path / "out", "astra-memory bench recurring")
    assert "| memory_replay | same bug, changed copy | 1 | 1 | 1 | 0 |" in open(written["markdown"]).read()

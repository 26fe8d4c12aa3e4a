"""A key glued to a name by an underscore (``test_sk-proj-...`` in a test id, ``x_ghp_...``,
``x_AKIA...``) is scrubbed like a free-standing one; the names around keys are not."""

from __future__ import annotations

import json

import pytest

from astra_memory.redact import REDACTED, scrub

# Fake credentials in the providers' shapes, built from parts (no scanner mistakes them for real ones).
OPENAI = "sk-" + "proj-" + "A1b2" * 12
GITHUB = "ghp_" + "a" * 36  # all lowercase: a long random body is a key whatever its letters
GITHUB_MIXED = "ghp_" + "a1B2" * 9
AWS = "AKIA" + "IOSFODNN7EXAMPL2"
AWS_LETTERS = "AKIA" + "A" * 16
STRIPE = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"
HF = "hf_" + "aBcDeFgHiJ" * 3 + "kL"


@pytest.mark.parametrize("text", [
    f"tests/t.py::test_{OPENAI}", f"x_{GITHUB}", f"x_{GITHUB_MIXED}", f"x_{AWS}", f"x_{AWS_LETTERS}",
    f"test_login_{STRIPE}", f"MY_{HF}", f"tests/t.py::test_a[{OPENAI}]", f"__{GITHUB}__",
])
def test_a_key_glued_to_a_name_is_scrubbed(text):
    cleaned = scrub(text)
    assert REDACTED in cleaned, cleaned
    for key in (OPENAI, GITHUB, GITHUB_MIXED, AWS, AWS_LETTERS, STRIPE, HF):
        assert key not in cleaned
    assert scrub(cleaned) == cleaned  # idempotent


@pytest.mark.parametrize("text", [
    "task_skip", "ghp", "AKIA", "x_ghp", "x_AKIA", "AKIA_ids", "use_hf_hub", "test_sk_test_connections",
    "check_rk_live_subscription", "ghp_token_count", "tests/test_tasks.py::test_task_skip_when_done",
    "def risk_score(task_sketch): return mask_skipped", "x_AKIAsmall", "x_npm_install",
])
def test_ordinary_names_are_left_alone(text):
    assert scrub(text) == text


def test_an_attempt_on_a_test_id_with_a_glued_key_keeps_no_key_and_its_id(tmp_path):
    """The attempt's ids are computed over the scrubbed test ids and paths, as stored: the record
    imports back (its id recomputed) and the repetition gate finds it from the raw test id."""
    from astra_memory.backends.open import open_memory_store
    from astra_memory.stores.attempt_transfer import imported_attempt
    from astra_memory.stores.attempts import AttemptMemory
    from astra_memory.stores.embeddings import HashEmbeddings

    test_id = f"tests/t.py::test_{OPENAI}"
    states = {f"app/x_{GITHUB}.py": ["0" * 64, "1" * 64]}
    with open_memory_store(tmp_path / "memory.sqlite", HashEmbeddings(), setting="test memory") as opened:
        attempts = AttemptMemory(opened.store)
        record = attempts.record(
            project="p", failing_tests=[test_id], symptom=f"AssertionError in test_{OPENAI}",
            error_type="AssertionError", diff=f"--- a/app/x.py\n+++ b/app/x.py\n@@ -1 +1 @@\n-a\n+b_{AWS_LETTERS}\n",
            file_states=states, end="tests_failed", outcome="1 failed", still_failing=[test_id],
            newly_failing=[], session_id=f"s_{GITHUB}", state="c" * 64)
        stored = record.model_dump_json()
        assert all(key not in stored for key in (OPENAI, GITHUB, AWS_LETTERS)), stored
        assert record.failing_tests == [f"tests/t.py::test_{REDACTED}"]
        assert imported_attempt(json.loads(record.model_dump_json())).attempt_id == record.attempt_id
        again = attempts.repeat_of(project="p", failing_tests=[test_id], file_states=states, state_now=lambda: "c" * 64)
        assert again is not None and again.attempt_id == record.attempt_id

"""A record only a file vouches for is not "this project's fix" (outside round 7 case 02): the evidence
rule (stores/confidence.py) showed an imported record as "this project's fix for the same failing test"
on the file's word for its `project_id`, though imported confirmations are never evidence. It needs a
confirmation this installation made in the project, as ranking does (stores/evidence.py `counted`);
without one it is shown only on a strong match by meaning, as another project's fix is."""

from __future__ import annotations

import json

import pytest

from astra_memory.stores.confidence import SAME_TEST, STRONG_MEANING, evidence
from astra_memory.stores.memory import FixMemory
from astra_memory.stores.record import memory_id_for
from astra_memory.stores.transfer import import_jsonl
from astra_memory.testrun.symptoms import failing_test_names
from tests.test_untrusted_memory import record_data

SYMPTOM = "AssertionError\nfailing tests: add\nfailing code: assert add(2, 3) == 5"
PROJECT = "git:calc"


def value(*confirmations, **extra):
    return {"project_id": PROJECT, "symptom": SYMPTOM, "diff": "", "confirmations": list(confirmations), **extra}


def confirmation(imported: bool, project_id: str = PROJECT) -> dict:
    return {"session_id": "s", "kind": "fix", "project_id": project_id, "imported": imported}


def test_the_same_failing_test_is_evidence_only_with_a_confirmation_made_here_in_the_project():
    failing = failing_test_names(SYMPTOM)
    assert failing
    assert evidence(value(confirmation(False)), 0.2, PROJECT, failing, frozenset()) == SAME_TEST
    assert evidence(value(confirmation(True), confirmation(True)), 0.2, PROJECT, failing, frozenset()) == ""
    assert evidence(value(confirmation(True)), 0.9, PROJECT, failing, frozenset()) == STRONG_MEANING
    assert evidence(value(confirmation(False, "git:other")), 0.2, PROJECT, failing, frozenset()) == ""


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
def test_an_imported_record_claiming_this_project_is_not_shown_as_its_fix(store, tmp_path):
    memory = FixMemory(store)
    data = record_data(symptom=SYMPTOM, project_id=PROJECT, project="calc",
                       confirmations=[{"session_id": f"forged-{i}", "thread_id": "t", "outcome": "o", "kind": "fix",
                                       "confirmed_at": "2026-01-01T00:00:00Z", "model": "m", "project": "calc",
                                       "project_id": PROJECT, "imported": False} for i in range(3)])
    data["memory_id"] = memory_id_for(project="calc", error_type=data["error_type"], diff=data["diff"],
                                      project_id=PROJECT)
    path = tmp_path / "import.jsonl"
    path.write_text(json.dumps(data) + "\n")
    import_jsonl(memory, path)
    hits = memory.search_codebase_memory(SYMPTOM, project_id=PROJECT, top_k=3)
    assert all(hit.evidence != SAME_TEST for hit in hits), [hit.evidence for hit in hits]

"""A fix of this project tied to the failure (the same failing test, the same function) is shown on that
evidence: the fused margin (stores/hybrid.py ``deliverable``) is measured for it from the best tied hit, so
another project's fix with the same symptom, however much higher it scores, does not hide it (outside round 8, cases 09 and 13: a fork's learned fix with a
short message hid the project's own fix for the same test, and stopped its replay)."""

from __future__ import annotations

from astra_memory.backends.sqlite.store import open_sqlite_store
from astra_memory.stores.confidence import SAME_TEST, STRONG_MEANING
from astra_memory.stores.embeddings import HashEmbeddings
from astra_memory.stores.hybrid import FUSED_MARGIN, deliverable
from astra_memory.stores.memory import FixMemory
from tests.test_confidence import store, symptom

LONG = ("Fix slugify for titles with several spaces in a row. " + "The old code collapsed runs of separators "
        "only after lower-casing, so some inputs kept double dashes and others lost a character; "
        "this reorders the steps and adds the regression tests from the report.")


def test_the_margin_of_a_hit_tied_to_the_failure_is_measured_among_the_tied():
    scores, fused = [0.99, 0.80], [0.99, 0.80]
    assert deliverable(scores, 0.15, 3, fused=fused) == [0]  # 0.80 is further than the margin below 0.99
    assert 0.99 - 0.80 > FUSED_MARGIN
    assert deliverable(scores, 0.15, 3, fused=fused, tied=[False, True]) == [0, 1]
    assert deliverable(scores, 0.15, 3, fused=fused, tied=[True, False]) == [0]  # untied ones still are cut
    # among tied hits the margin is measured from the best tied one
    assert deliverable([0.99, 0.80, 0.70], 0.15, 3, fused=[0.99, 0.80, 0.70], tied=[False, True, True]) == [0, 1]


def test_another_projects_higher_score_does_not_hide_this_projects_fix_for_the_same_test(tmp_path):
    failure = symptom("test_slugify_spaces", 'slugify("a  b") == "a-b"', "'a--b' == 'a-b'")
    with open_sqlite_store(tmp_path / "memory.sqlite", HashEmbeddings()) as opened:
        memory = FixMemory(opened)
        store(memory, "own-fix", "textkit", failure, LONG)  # a real commit message: a longer embedded text
        store(memory, "fork-fix", "textkit-fork", failure, "fix slug")
        ranked = memory.search_codebase_memory(failure, top_k=3, min_score=-1, project_id="test:textkit")
        scores = {h.record.session_id: h.fused for h in ranked}
        assert scores["fork-fix"] - scores["own-fix"] > FUSED_MARGIN  # the case: the own fix is far below
        hits = memory.search_codebase_memory(failure, project_id="test:textkit")
        assert [(h.record.session_id, h.evidence) for h in hits][0] == ("own-fix", SAME_TEST)
        assert ("fork-fix", STRONG_MEANING) in [(h.record.session_id, h.evidence) for h in hits]

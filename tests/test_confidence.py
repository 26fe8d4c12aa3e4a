"""A symptom search shows a hit only on evidence (stores/confidence.py): this project's fix for the same
failing test or through the same function, or a strong match by meaning; else "no confident match",
to the model (format_hits) and to the person (the progress line, `memory search`)."""

from __future__ import annotations

from astra_memory.backends.sqlite.store import open_sqlite_store
from astra_memory.cli.progress import node_detail
from astra_memory.state import memory_result
from astra_memory.stores.confidence import (
    AND_MEANING,
    ANOTHER_CASE,
    CHANGED_FUNCTION,
    MIN_COSINE_WITHOUT_EVIDENCE,
    NO_CONFIDENT_MATCH,
    OTHER_PROJECT_OFFSET,
    OWN_WITHOUT_TIE_OFFSET,
    SAME_FUNCTION,
    SAME_MODULE,
    SAME_TEST,
    STRONG_MEANING,
    direct_tie,
    evidence,
    function_frames,
    own_history,
    project_tie,
    same_module,
    same_test_file,
    strength,
)
from astra_memory.stores.embeddings import HashEmbeddings
from astra_memory.stores.format import NO_RESULTS, format_hits
from astra_memory.stores.memory import FixMemory
from astra_memory.stores.recurrence import another_bug_of_the_project
from astra_memory.testrun.symptoms import (
    failing_test_names,
    failing_tests,
    parse_failure,
    symptom_query,
    traceback_functions,
)

OUTCOME = "pytest passed with exit code 0 (9 passed)"
OUTPUT = """\
=================================== FAILURES ===================================
_______________________________ {test} ________________________________

    def {test}():
>       assert {code}
E       AssertionError: assert {message}

tests/test_lib.py:12: AssertionError
=========================== short test summary info ============================
FAILED tests/test_lib.py::{test} - AssertionError: assert {message}
========================= 1 failed, 8 passed in 0.05s ==========================
"""



def confirmed_here(project_id: str) -> list[dict]:
    """A stored record's confirmation by this installation, in the project (what makes it "this project's")."""
    return [{"session_id": "s", "kind": "fix", "project_id": project_id}]

def symptom(test: str, code: str, message: str) -> str:
    return symptom_query(parse_failure(OUTPUT.format(test=test, code=code, message=message)))


def store(memory: FixMemory, session: str, project: str, text: str, fix: str) -> None:
    memory.store_fix_memory(fix_description=fix, error_type="AssertionError", file_paths=["lib.py"], outcome=OUTCOME,
                            confirmed_outcome=OUTCOME, symptom=text, diff="-a\n+b\n", session_id=session,
                            project=project, project_id=f"test:{project}")


def test_evidence_is_the_same_test_or_function_of_this_project_or_a_strong_meaning():
    # frames as symptoms write them: module.function (a bare name is a module: function_frames)
    query = "AssertionError\nfailing tests: compare major\nin: semver.compare, semver._cmp"
    failing, functions = failing_test_names(query), traceback_functions(query)
    here = confirmed_here("test:semver")
    own = {"project_id": "test:semver", "symptom": "AssertionError\nfailing tests: compare major", "confirmations": here}
    through = {"project_id": "test:semver", "symptom": "TypeError\nfailing tests: bump minor\nin: semver._cmp",
               "confirmations": here}
    neither = {"project_id": "test:semver", "symptom": "TypeError\nfailing tests: bump minor\nin: semver.bump",
               "confirmations": here}
    other = {"project_id": "test:toolz", "symptom": "AssertionError\nfailing tests: compare major\nin: toolz.compare"}
    args = ("test:semver", failing, functions)
    assert evidence(own, 0.2, *args) == SAME_TEST
    # two failures through the same function: indirect, shown with a match by meaning (round 4)
    assert evidence(through, 0.2, *args) == "" and evidence(through, 0.5, *args) == SAME_FUNCTION + AND_MEANING
    assert evidence(neither, 0.2, *args) == ""
    changed = dict(neither, diff="--- a/semver.py\n+++ b/semver.py\n@@ -9,1 +9,1 @@ def _cmp(a, b):\n-    x\n+    y\n")
    assert evidence(changed, 0.2, *args) == CHANGED_FUNCTION  # its fix changed a function this failure went through
    assert another_bug_of_the_project(neither, *args) and not another_bug_of_the_project(changed, *args)
    assert evidence(other, MIN_COSINE_WITHOUT_EVIDENCE - 0.01, *args) == ""  # another project's names prove nothing
    assert evidence(other, MIN_COSINE_WITHOUT_EVIDENCE, *args) == STRONG_MEANING
    assert evidence(own, 0.2, None, failing, functions) == ""  # a search for no project: meaning alone


def test_another_projects_fix_at_a_middling_score_is_not_shown_and_the_model_reads_so(tmp_path):
    with open_sqlite_store(tmp_path / "memory.sqlite", HashEmbeddings()) as opened:
        memory = FixMemory(opened)  # the product's cut-off (min score 0.15, fused floor 0.35)
        store(memory, "toolz-fix", "toolz", symptom("test_thread_last", "thread_last([1, 2], inc) == [2, 3]",
                                                     "[2] == [2, 3]"), "argument order of thread_last")
        store(memory, "semver-fix", "semver", symptom("test_compare_major", 'semver.compare("1.0.0", "2.0.0") == -1',
                                                       "1 == -1"), "operands swapped in compare")
        middling = symptom("test_pipe_values", "pipe([3], dec) == [4]", "[3] == [4]")
        ranked = memory.search_codebase_memory(middling, top_k=5, min_score=-1, project_id="test:semver")
        # semver's own fix ranks first (it has fixes of its own: stores/confidence.py ``strength``)
        assert [h.record.session_id for h in ranked] == ["semver-fix", "toolz-fix"]
        best = ranked[1]
        # above the fused floor, so shown before this rule; below the cosine a match by meaning needs
        assert 0.35 <= best.fused < MIN_COSINE_WITHOUT_EVIDENCE
        assert best.evidence == ""
        hits = memory.search_codebase_memory(middling, project_id="test:semver")
        assert hits == [] and format_hits(hits) == NO_RESULTS and NO_RESULTS.startswith("No confident match")
        # the same failing test again in this project: shown, and it says on what
        again = symptom("test_compare_major", 'semver.compare("1.0.0", "1.0.0") == 0', "-1 == 0")
        hits = memory.search_codebase_memory(again, project_id="test:semver")
        assert [h.record.session_id for h in hits] == ["semver-fix"] and hits[0].evidence == SAME_TEST
        assert f"why: shown as {SAME_TEST}" in format_hits(hits, query=again, project_id="test:semver")
        assert memory_result(again, hits, "")["hits"][0]["evidence"] == SAME_TEST  # the progress line's
        # a floor of 0 shows every rank: nothing is held back for want of evidence either
        assert [h.record.session_id for h in FixMemory(opened, floor=0.0).search_codebase_memory(
            middling, project_id="test:semver")] == ["toolz-fix"]


def test_the_progress_line_says_no_confident_match_or_what_the_best_hit_was_shown_on():
    assert node_detail("memory_search", {"memory": {"hits": []}}) == NO_CONFIDENT_MATCH
    best = {"memory_id": "m", "score": 0.41, "session_id": "semver-fix", "project": "semver", "evidence": SAME_TEST}
    assert node_detail("memory_search", {"memory": {"hits": [best]}}) == (
        f"1 hit(s), best 0.4100 from semver-fix, shown as {SAME_TEST}")
    assert node_detail("diagnosis_search", {"diagnosis": {"hits": []}}) == f"{NO_CONFIDENT_MATCH} for the diagnosis"


def test_another_projects_fix_needs_a_stronger_match_where_this_project_has_fixes_of_its_own():
    query = "AssertionError\nfailing tests: compare major"
    args = ("test:semver", failing_test_names(query), traceback_functions(query))
    other = {"project_id": "test:toolz", "symptom": "AssertionError\nfailing tests: thread last"}
    mine = {"project_id": "test:semver", "symptom": "TypeError\nfailing tests: bump minor",
            "confirmations": confirmed_here("test:semver")}
    assert evidence(other, MIN_COSINE_WITHOUT_EVIDENCE, *args) == STRONG_MEANING  # no fix of its own: as before
    bar = MIN_COSINE_WITHOUT_EVIDENCE + OTHER_PROJECT_OFFSET  # where it has: a stronger match by meaning
    assert evidence(other, bar - 0.01, *args, has_own=True) == ""
    assert evidence(other, bar, *args, has_own=True) == STRONG_MEANING  # another project's bug of the same kind
    assert evidence(other, MIN_COSINE_WITHOUT_EVIDENCE, None, *args[1:], has_own=True) == STRONG_MEANING  # no project
    assert own_history([other, mine], "test:semver") and not own_history([other], "test:semver")
    assert not own_history([other, mine], None)


def test_this_projects_fix_with_no_tie_needs_a_strong_match_or_a_module_this_failure_went_through():
    query = "AssertionError\nfailing tests: compare major\nin: semver"  # a bare module frame: no function
    args = ("test:semver", failing_test_names(query), traceback_functions(query))
    elsewhere = {"project_id": "test:semver", "symptom": "TypeError\nfailing tests: bump minor",
                 "file_paths": ["semver/cli.py"], "confirmations": confirmed_here("test:semver")}
    here = dict(elsewhere, file_paths=["semver.py"])
    strong = MIN_COSINE_WITHOUT_EVIDENCE + OWN_WITHOUT_TIE_OFFSET
    assert not same_module(elsewhere, args[2]) and same_module(here, args[2])
    assert evidence(elsewhere, strong - 0.01, *args, has_own=True) == ""  # the one bar (0.50) showed it before
    assert evidence(elsewhere, strong, *args, has_own=True) == STRONG_MEANING
    assert evidence(here, MIN_COSINE_WITHOUT_EVIDENCE, *args, has_own=True) == SAME_MODULE
    assert evidence(here, MIN_COSINE_WITHOUT_EVIDENCE - 0.01, *args, has_own=True) == ""
    # a frame module.function names its module too; a package's module is package.module
    assert same_module({"file_paths": ["pathspec/patterns/gitwildmatch.py"]},
                       traceback_functions("in: patterns.gitwildmatch.escape"))


def test_a_project_with_its_own_history_is_not_shown_another_projects_middling_match(tmp_path):
    with open_sqlite_store(tmp_path / "memory.sqlite", HashEmbeddings()) as opened:
        memory = FixMemory(opened)
        store(memory, "toolz-fix", "toolz", symptom("test_thread_last", "thread_last([1, 2], inc) == [2, 3]",
                                                     "[2] == [2, 3]"), "argument order of thread_last")
        middling = symptom("test_pipe_values", "thread_last([3], inc) == [4]", "[3] == [4]")
        close = symptom("test_thread_last", "thread_last([1, 2], inc) == [2, 3]", "[2] == [2, 4]")
        best = memory.search_codebase_memory(middling, top_k=5, min_score=-1, project_id="test:semver")[0]
        assert MIN_COSINE_WITHOUT_EVIDENCE <= best.score < MIN_COSINE_WITHOUT_EVIDENCE + OTHER_PROJECT_OFFSET
        # semver has no fix of its own in memory: another project's match by meaning is shown
        assert [h.record.session_id for h in memory.search_codebase_memory(middling, project_id="test:semver")] == [
            "toolz-fix"]
        store(memory, "semver-fix", "semver", symptom("test_compare_major", 'semver.compare("1.0.0", "2.0.0") == -1',
                                                       "1 == -1"), "operands swapped in compare")
        hits = memory.search_codebase_memory(middling, project_id="test:semver")
        assert hits == [] and format_hits(hits) == NO_RESULTS  # its own history has nothing tied, toolz not enough
        assert [h.record.session_id for h in memory.search_codebase_memory(middling, project_id="test:attrs")] == [
            "toolz-fix"]  # a project with no history of its own: as before
        # a strong match of another project's is shown all the same: another project's bug of the same kind
        strong = memory.search_codebase_memory(close, project_id="test:semver")
        assert [h.record.session_id for h in strong] == ["toolz-fix"] and strong[0].evidence == STRONG_MEANING
        assert strong[0].score >= MIN_COSINE_WITHOUT_EVIDENCE + OTHER_PROJECT_OFFSET


def test_where_the_project_has_fixes_of_its_own_they_rank_before_other_projects_by_strength(tmp_path):
    query = "AssertionError\nfailing tests: compare major\nin: compare"
    args = ("test:semver", failing_test_names(query), traceback_functions(query))
    tied = {"project_id": "test:semver", "symptom": "AssertionError\nfailing tests: compare major",
            "confirmations": confirmed_here("test:semver")}
    mine = {"project_id": "test:semver", "symptom": "TypeError\nfailing tests: bump minor",
            "confirmations": confirmed_here("test:semver")}
    other = {"project_id": "test:toolz", "symptom": "AssertionError\nfailing tests: compare major\nin: compare"}
    assert [strength(v, *args) for v in (tied, mine, other)] == [0, 1, 3]
    assert strength(tied, None, *args[1:]) == 3  # a search for no project: every fix is another's
    with open_sqlite_store(tmp_path / "memory.sqlite", HashEmbeddings()) as opened:
        memory = FixMemory(opened)
        store(memory, "toolz-fix", "toolz", symptom("test_thread_last", "thread_last([1, 2], inc) == [2, 3]",
                                                     "[2] == [2, 3]"), "argument order of thread_last")
        store(memory, "semver-fix", "semver", symptom("test_compare_major", 'semver.compare("1.0.0", "2.0.0") == -1',
                                                       "1 == -1"), "operands swapped in compare")
        close = symptom("test_thread_last", "thread_last([1, 2], inc) == [2, 3]", "[2] == [2, 4]")
        for project, order in (("test:attrs", ["toolz-fix", "semver-fix"]), ("test:semver", ["semver-fix", "toolz-fix"])):
            ranked = memory.search_codebase_memory(close, top_k=5, min_score=-1, project_id=project)
            assert [h.record.session_id for h in ranked] == order
        assert ranked[0].score < ranked[1].score  # semver's own fix first, though toolz's is closer in meaning


def test_a_bare_module_frame_is_no_evidence_of_the_same_function():
    # pytest's location line with no function ("parse.py:512: ValueError") is written as the bare module
    query = "ValueError\nfailing tests: tz compare to None\nin: parse"
    args = ("test:parse", failing_test_names(query), traceback_functions(query))
    module_only = {"project_id": "test:parse", "symptom": "ValueError\nfailing tests: numbers\nin: parse",
                   "confirmations": confirmed_here("test:parse")}
    assert function_frames(frozenset({"parse", "parse.Parser._handle_field"})) == {"parse.Parser._handle_field"}
    assert evidence(module_only, 0.2, *args) == ""
    # nor of a function the failure went through: the recurrence rule cannot tell, and keeps the fix (on bench
    # history it left out a relevant fix of the same function for 6 of 29 queries of the kept-apart projects)
    assert not another_bug_of_the_project(module_only, *args)
    through = "ValueError\nfailing tests: tz compare to None\nin: parse, parse.Parser._handle_field"
    args = ("test:parse", failing_test_names(through), traceback_functions(through))
    same = dict(module_only, symptom="ValueError\nfailing tests: numbers\nin: parse, parse.Parser._handle_field")
    assert evidence(same, 0.5, *args) == SAME_FUNCTION + AND_MEANING and not another_bug_of_the_project(same, *args)


def test_a_projects_own_fix_is_ranked_though_other_projects_fill_the_vector_pool(tmp_path):
    from astra_memory.stores.hybrid import CANDIDATE_POOL

    with open_sqlite_store(tmp_path / "memory.sqlite", HashEmbeddings()) as opened:
        memory = FixMemory(opened)
        query = symptom("test_thread_last", "thread_last([1, 2], inc) == [2, 3]", "[2] == [2, 3]")
        for n in range(CANDIDATE_POOL + 1):  # other projects' fixes, each closer to the query than semver's
            store(memory, f"other-{n}", f"lib{n}", query, f"argument order of thread_last, case {n}")
        store(memory, "semver-fix", "semver", symptom("test_compare_major", 'semver.compare("1.0.0", "2.0.0") == -1',
                                                       "1 == -1"), "operands swapped in compare")
        everything = memory.search_codebase_memory(query, top_k=10, min_score=-1)
        assert "semver-fix" not in [h.record.session_id for h in everything]  # outside the vector's pool
        ranked = memory.search_codebase_memory(query, top_k=10, min_score=-1, project_id="test:semver")
        assert ranked[0].record.session_id == "semver-fix"  # its own pool: ranked, and first (strength)


def test_the_same_function_is_the_same_name_in_the_same_module():
    # a fix that changed `read` in span_token.py did not change block_token's `read` (every class has one)
    query = "ValueError\nfailing tests: paragraph\nin: mistletoe.block_token.read"
    args = ("test:m", failing_test_names(query), traceback_functions(query))
    here = confirmed_here("test:m")
    hunk = "@@ -9,1 +9,1 @@ def read(cls, lines):\n-    x\n+    y\n"
    elsewhere = {"project_id": "test:m", "symptom": "TypeError\nfailing tests: emphasis", "confirmations": here,
                 "diff": f"--- a/mistletoe/span_token.py\n+++ b/mistletoe/span_token.py\n{hunk}"}
    assert evidence(elsewhere, 0.2, *args) == "" and project_tie(elsewhere, *args[1:]) == ""
    here_too = dict(elsewhere, diff=f"--- a/mistletoe/block_token.py\n+++ b/mistletoe/block_token.py\n{hunk}")
    assert evidence(here_too, 0.2, *args) == CHANGED_FUNCTION


def test_an_anonymous_code_object_names_no_function():
    # every comprehension of a module is `<listcomp>`: sharing one ties nothing
    assert function_frames(frozenset({"tabulate.<listcomp>", "tabulate.tabulate", "tabulate"})) == {"tabulate.tabulate"}
    query = "ValueError\nfailing tests: intfmt with colors\nin: tabulate.<listcomp>, tabulate"
    args = ("test:t", failing_test_names(query), traceback_functions(query))
    through = {"project_id": "test:t", "symptom": "TypeError\nfailing tests: blank list\nin: tabulate.<listcomp>",
               "confirmations": confirmed_here("test:t")}
    assert project_tie(through, *args[1:]) == "" and evidence(through, 0.6, *args) == ""


def test_another_case_of_a_parametrized_test_is_indirect_evidence_and_the_same_case_a_tie():
    ids = "\nfailing test ids: tests/test_dates.py::test_parse_valid_date"
    query = "ParseError\nfailing tests: parse valid date [2007-01-01T08:00:00]" + ids
    args = ("test:iso", failing_tests(query), traceback_functions(query))
    here = confirmed_here("test:iso")
    other_case = {"project_id": "test:iso", "confirmations": here,
                  "symptom": "ParseError\nfailing tests: parse valid date [2010-07-20 15:25:52.520701+00:00]" + ids}
    same = dict(other_case, symptom=query)
    assert direct_tie(same, *args[1:]) == SAME_TEST and evidence(same, 0.2, *args) == SAME_TEST
    assert direct_tie(other_case, *args[1:]) == ""
    assert evidence(other_case, 0.2, *args) == "" and evidence(other_case, 0.5, *args) == ANOTHER_CASE + AND_MEANING
    # the recurrence rule still keeps it: a later bug in the same code makes another case fail
    assert project_tie(other_case, *args[1:]) == SAME_TEST
    assert not another_bug_of_the_project(other_case, "test:iso", failing_tests(query), frozenset({"iso.parse_date"}))


def test_a_projects_fix_from_another_test_file_needs_a_direct_tie():
    query = "AssertionError\nfailing tests: orgtbl with sep line\nfailing test ids: test/test_output.py::test_orgtbl_with_sep_line"
    args = ("test:t", failing_tests(query), traceback_functions(query))
    here = confirmed_here("test:t")
    wrap = {"project_id": "test:t", "confirmations": here,
            "symptom": "AssertionError\nfailing tests: wrap text\nfailing test ids: test/test_textwrapper.py::test_wrap_text"}
    assert not same_test_file(wrap, args[1]) and evidence(wrap, 0.9, *args) == ""
    assert strength(wrap, *args) == 2
    moved = dict(wrap, symptom="AssertionError\nfailing tests: github\nfailing test ids: tests/test_output.py::test_github")
    assert same_test_file(moved, args[1]) and evidence(moved, 0.9, *args) == STRONG_MEANING  # the file's name
    assert strength(moved, *args) == 1
    unnamed = dict(wrap, symptom="AssertionError\nfailing tests: wrap text")  # no ids: cannot tell, as before
    assert evidence(unnamed, 0.9, *args) == STRONG_MEANING
    other = {"project_id": "test:x", "symptom": wrap["symptom"]}  # another project's fix: unchanged
    assert evidence(other, 0.9, *args, has_own=True) == STRONG_MEANING

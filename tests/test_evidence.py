"""Outcome-aware ranking (issue 12, part 3): a fix of this project confirmed again or replayed moves
up a place or two; other projects' fixes never move; the hits say how often each fix was confirmed.
Real SqliteStore file and real PostgresStore; deterministic embeddings."""

import pytest

from astra_memory.bench.evidence import confirm_again, run_history
from astra_memory.bench.query_cases import load_cases
from astra_memory.stores.embeddings import HashEmbeddings
from astra_memory.stores.evidence import MAX_LIFT, evidence, lift
from astra_memory.stores.format import format_hits
from astra_memory.stores.memory import FixMemory
from tests.test_confirmations import confirm, unified

QUERY = "AssertionError: second origin rejected by the cors gate"


def four_fixes(memory, project="corsgate"):
    """Four fixes of one project, each a little further from QUERY (more unrelated words)."""
    noise = ["alpha", "beta gamma", "delta epsilon zeta", "eta theta iota kappa lambda"]
    return [confirm(memory, f"s{i}", diff=unified("a = 0\n", f"a = {i}\n", f"app/m{i}.py"), project=project,
                    symptom=f"{QUERY} {noise[i]}", fix_description=f"fix number {i}", file_paths=[f"app/m{i}.py"])
            for i in range(4)]


def order(memory, **kwargs):
    return [h.record.session_id for h in memory.search_codebase_memory(QUERY, top_k=4, min_score=-1, **kwargs)]


def again(memory, session, n, kind="fix"):
    """Confirm the fix first stored by ``session`` ``n`` more times, through the product's own merge."""
    record = next(r for r in memory.iter_records() if r.session_id == session)
    for k in range(n):
        record = confirm_again(memory, record, f"{session}-again{k}", kind)
    return record


def test_lift_is_one_place_per_doubling_and_bounded():
    assert [lift(n) for n in (0, 1, 2, 3, 6, 7, 100)] == [0, 1, 1, 2, 2, 2, MAX_LIFT]
    fix, replay = {"kind": "fix", "project_id": "p"}, {"kind": "replay", "project_id": "p"}
    once = {"project_id": "p", "confirmations": [fix]}
    assert evidence(once) == 0
    assert evidence({"project_id": "p", "confirmations": [fix, fix]}) == 1
    assert evidence({"project_id": "p", "confirmations": [fix, replay]}) == 2  # a replay counts twice
    assert evidence({"project_id": "p", "confirmations": [fix], "confirmations_dropped": 3}) == 3
    # A project is its id, never its name: confirmations without one (before ids were kept), or in
    # another project of the same name, are no evidence.
    assert evidence({"project": "p", "confirmations": [{"kind": "fix", "project": "p"}] * 3}) == 0
    assert evidence({"project_id": "p", "confirmations": [fix, {"kind": "fix", "project_id": "q"}]}) == 0


def test_a_recurring_fix_of_this_project_moves_up_and_other_searches_do_not_move(store):
    memory = FixMemory(store)
    four_fixes(memory)
    before = order(memory, project_id="test:corsgate")
    assert before == order(memory) == order(FixMemory(store, evidence="off"), project_id="test:corsgate")
    third = before[2]
    again(memory, third, 1, kind="replay")  # evidence 2: one place up
    after = order(memory, project_id="test:corsgate")
    assert after == [*before[:1], third, before[1], *before[3:]], (before, after)
    assert order(memory, project_id="test:another-project") == before  # popularity is not relevance elsewhere
    assert order(memory) == before  # no project given: nothing lifted
    assert order(FixMemory(store, evidence="off"), project_id="test:corsgate") == before


def test_the_lift_is_bounded_whatever_the_count(store):
    memory = FixMemory(store)
    four_fixes(memory)
    last = order(memory, project_id="test:corsgate")[3]
    again(memory, last, 30)
    assert order(memory, project_id="test:corsgate").index(last) == 3 - MAX_LIFT
    assert order(FixMemory(store, evidence="all")).index(last) == 3 - MAX_LIFT


def test_evidence_never_lifts_an_invalidated_or_superseded_fix_above_an_active_one(store):
    memory = FixMemory(store)
    fixes = four_fixes(memory)
    last = order(memory, project_id="test:corsgate")[3]
    record = again(memory, last, 10)
    memory.update_record(record.memory_id, status="superseded", superseded_by=fixes[0].memory_id)
    assert order(memory, project_id="test:corsgate")[-1] == last
    memory.update_record(record.memory_id, status="invalidated", status_reason="wrong")
    assert last not in order(memory, project_id="test:corsgate")


def test_the_hits_say_how_often_each_fix_was_confirmed(store):
    memory = FixMemory(store)
    four_fixes(memory)
    again(memory, "s0", 2, kind="replay")
    text = format_hits(memory.search_codebase_memory(QUERY, top_k=4, min_score=-1, project_id="test:corsgate"))
    assert "evidence: confirmed 3 time(s), 2 by replay" in text
    assert "evidence: confirmed 1 time(s), 0 by replay" in text


def test_an_unknown_scope_is_refused(store):
    with pytest.raises(ValueError, match="evidence must be one of"):
        FixMemory(store, evidence="sometimes")


def test_the_evidence_bench_compares_on_one_store(tmp_path):
    """The bench's three rankings search the same store: without evidence on the records (all
    confirmed once) they are identical; with a history they may differ, and the product's scope
    equals `off` for every query of a project that has no evidence."""
    cases = load_cases("astra_memory/bench/cases/dev_extra.jsonl")
    for history in ("uncorrelated", "recurring"):
        result = run_history(cases, history, 0, HashEmbeddings(), tmp_path)
        assert set(result) >= {"off", "project", "all"}
        assert result["project"]["queries"] == len(cases.queries)
    # dev-extra's queries are other projects than its records: the product's scope lifts nothing there
    (tmp_path / "u").mkdir()
    uncorrelated = run_history(cases, "uncorrelated", 1, HashEmbeddings(), tmp_path / "u")
    assert uncorrelated["project"] == uncorrelated["off"]


def test_the_memory_search_node_searches_for_the_sessions_project(store, tmp_path):
    """The graph's own search (the memory_search node) lifts its project's recurring fix."""
    from langgraph.runtime import Runtime

    from astra_memory.context import Context
    from astra_memory.nodes.memory_search import memory_search

    memory = FixMemory(store)
    four_fixes(memory)
    failure = {"error_type": "AssertionError", "failing_tests": ["tests/test_cors.py::test_second_origin"],
               "message": "second origin rejected by the cors gate", "files": [], "failing_code": []}

    def shown(project):
        task = {"workspace": str(tmp_path), "test_command": "pytest -q", "prompt": "", "project": project,
                "project_id": f"test:{project}"}
        result = memory_search({"task": task, "failure": failure},
                               Runtime(context=Context(min_score=-1.0, memory_top_k=4), store=store))
        return [h["session_id"] for h in result["memory"]["hits"]]

    before = shown("corsgate")
    again(memory, before[3], 3)  # evidence 3: two places up
    assert shown("corsgate") == [before[0], before[3], before[1], before[2]]
    assert shown("another-project") == before


def test_bench_evidence_command_writes_its_report(tmp_path):
    import json

    from tests.conftest import run_cli

    out = tmp_path / "out"
    result = run_cli("bench", "evidence", "--cases", "astra_memory/bench/cases/dev_extra.jsonl", "--seeds", "1",
                     "--json", "--out", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    scopes = data["sets"]["dev_extra"]["uncorrelated"]
    assert set(scopes) == {"off", "project", "all"} and scopes["project"]["recall@3"] == scopes["off"]["recall@3"]
    assert "| dev_extra | recurring | project |" in (out / "evidence.md").read_text()
    assert run_cli("bench", "evidence", "--cases", str(tmp_path / "missing.jsonl")).returncode == 2

"""The CLI end to end, as a user runs it (subprocesses, a temp ASTRA_HOME)."""

import json

import pytest

from tests.conftest import cli_env, run_cli


@pytest.mark.slow
@pytest.mark.minilm
def test_demo_two_sessions_one_memory(isolated_home):
    result = run_cli("demo", "--json", env=cli_env(ASTRA_EMBEDDINGS="minilm"))
    assert result.returncode == 0, result.stderr
    assert "Loading weights" not in result.stderr  # transformers' own bar stays out of our output
    evidence = json.loads(result.stdout)
    alpha, beta, again = evidence["sessions"]
    assert evidence["cost_usd"] == alpha["cost_usd"] == beta["cost_usd"] == again["cost_usd"] == 0
    assert evidence["model"] == "scripted"
    assert [alpha["scenario"], beta["scenario"], again["scenario"]] == ["alpha", "beta", "alpha-again"]
    # The third session: alpha's bug in a changed copy, fixed by replaying alpha's fix, no model request.
    assert again["status"] == "fixed" and again["model_requests"] == 0 and again["original_tests_passed"]
    assert again["replayed_memory_id"] == again["stored_memory_id"] == alpha["stored_memory_id"]
    assert alpha["status"] == beta["status"] == "fixed"
    assert alpha["memory_hits_before_first_edit"] == []  # empty memory: the search still happened
    assert alpha["memory_searched_before_any_read_or_edit"] and beta["memory_searched_before_any_read_or_edit"]
    assert beta["memory_hits_before_first_edit"][0]["memory_id"] == alpha["stored_memory_id"]
    assert beta["memory_hits_before_first_edit"][0]["session_id"] == alpha["thread_id"]
    assert alpha["original_tests_passed"] and beta["original_tests_passed"]
    assert beta["stored_memory_id"] not in (None, alpha["stored_memory_id"])
    for session in (alpha, beta):
        assert session["model_requests"] >= 2 and session["tool_calls"] >= 2


@pytest.mark.slow
def test_memory_smoke_stores_finds_verifies_and_deletes():
    result = run_cli("memory", "smoke", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["ok"] and len(report["steps"]) == 5
    assert json.loads(run_cli("memory", "list", "--json").stdout) == []


def test_memory_commands_round_trip(tmp_path):
    first = run_cli("run", "alpha", "--thread-id", "m-1")
    assert first.returncode == 0 and "cost scripted: $0" in first.stdout  # plain output says what it cost
    listing = json.loads(run_cli("memory", "list", "--json").stdout)
    assert len(listing) == 1
    memory_id = listing[0]["memory_id"]
    # Hash embeddings in this test: the threshold calibrated for MiniLM is not the point here.
    hits = json.loads(run_cli("memory", "search", "second origin rejected after comma", "--json",
                              env=cli_env(ASTRA_MIN_SCORE="0")).stdout)
    assert hits[0]["memory_id"] == memory_id
    export = tmp_path / "out.jsonl"
    assert run_cli("memory", "export", str(export)).returncode == 0
    assert run_cli("memory", "delete", memory_id).returncode == 0
    assert run_cli("memory", "show", memory_id).returncode == 2  # unknown input: a usage exit
    imported = run_cli("memory", "import", str(export))
    assert imported.returncode == 0 and imported.stdout.startswith("imported 1 new record(s) and 0 new failed")
    assert json.loads(run_cli("memory", "show", memory_id, "--json").stdout)["memory_id"] == memory_id
    again = run_cli("memory", "import", str(export))  # issue 36 item 10: it said "imported 1 record(s)" again
    assert "imported 0 new record(s), 1 already there (their confirmations merged)" in again.stdout
    bad = tmp_path / "bad.jsonl"
    bad.write_text(export.read_text() + "not json\n")
    result = run_cli("memory", "import", str(bad))
    assert result.returncode == 2 and "line 2" in result.stderr  # bad input: exit 2 (issue 11)


def test_bad_input_is_a_clear_error(tmp_path):
    assert run_cli("run").returncode == 2
    assert run_cli("run", "no-such-scenario").returncode == 2
    assert "top_k" in run_cli("memory", "search", "x", "--top-k", "11").stderr
    not_sqlite = tmp_path / "home"
    not_sqlite.mkdir()
    (not_sqlite / "memory.sqlite").write_text("this is not a database")
    result = run_cli("memory", "list", env=cli_env(ASTRA_HOME=str(not_sqlite)))
    assert result.returncode == 2 and "memory.sqlite is damaged" in result.stderr
    assert (not_sqlite / "memory.sqlite").read_text() == "this is not a database"


def test_threads_and_scenarios_list():
    assert run_cli("run", "beta", "--thread-id", "b-1").returncode == 0
    rows = json.loads(run_cli("threads", "--json").stdout)
    assert rows[0]["thread_id"] == "b-1" and rows[0]["status"] == "fixed" and rows[0]["last_node"] == "report"
    names = {s["name"] for s in json.loads(run_cli("scenarios", "--json").stdout)}
    assert {"alpha", "beta"} <= names

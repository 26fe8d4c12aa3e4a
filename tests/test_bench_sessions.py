"""`bench sessions` runs the origin-story experiment through the session library: session 1 stores
beta's fix; session 2 starts from that one record on a fresh workspace and a new thread and finds
it in its mandatory search before the first edit; a family run grows the memory one fix at a time.
(Hash embeddings: this checks the experiment's mechanics; retrieval quality is the MiniLM test's job.)"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from astra_memory.scenarios import list_scenarios


@pytest.mark.slow
@pytest.mark.minilm  # a family's members are other projects: their fixes are shown on meaning, which hash vectors lack
def test_two_sessions_and_a_family_run(tmp_path):
    from astra_memory.cli.app import app

    out = tmp_path / "results"
    result = CliRunner().invoke(app, ["bench", "sessions", "--sessions", "2", "--family", "unicode-casefold",
                                      "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    first, second = report["five_sessions"]["sessions"]
    assert first["records_in_memory"] == 0 and first["hits"] == [] and first["stored_memory_id"]
    assert second["records_in_memory"] == 1 and second["thread_id"] != first["thread_id"]
    assert second["session1_rank"] == 1 and second["retrieved_before_first_edit"]
    assert second["memory_searched_before_any_read_or_edit"]
    for row in (first, second):
        assert row["status"] == "fixed" and row["original_tests_passed"]
        assert row["model_requests"] >= 2 and row["tool_calls"] >= 2 and row["wall_time_s"] > 0
    family = report["family_run"]["sessions"]
    members = [s.name for s in list_scenarios() if s.family == "unicode-casefold"]
    assert sorted(r["scenario"] for r in family) == sorted(members)  # every scenario of the family, once
    assert [r["records_in_memory"] for r in family] == list(range(len(members)))  # memory grows by one each
    for n, row in enumerate(family[1:], start=1):  # each later session finds only earlier ones' fixes
        assert row["hits_from"] and set(row["hits_from"]) <= {r["scenario"] for r in family[:n]}
    assert all(r["status"] == "fixed" and r["original_tests_passed"] for r in family)
    for name in ("sessions.json", "sessions.md", "sessions_five.png", "sessions_family.png"):
        assert (out / name).stat().st_size > 1000, name


def test_unknown_family_is_a_usage_error(tmp_path):
    from astra_memory.cli.app import app

    result = CliRunner().invoke(app, ["bench", "sessions", "--sessions", "1", "--family", "no-such-family",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 2 and "no-such-family" in result.output

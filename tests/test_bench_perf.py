"""`bench perf` at tiny sizes produces its JSON, Markdown and PNGs in one run: SQLite and PostgreSQL
search latency beside the numpy floor over the same vectors (SQLite with the same top 3, PostgreSQL
with the recall of its HNSW search against exact search), the session with the SQLite and the
in-memory checkpointer, the test-subprocess share, and whole-process cold starts."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner


@pytest.mark.slow
def test_perf_at_tiny_sizes_writes_every_output(tmp_path, pg_server, monkeypatch):
    from astra_memory.cli.app import app
    from tests.pg import SHARED_DATABASE

    # The bench's PostgreSQL backend works in a throwaway schema of this database (and drops it).
    monkeypatch.setenv("ASTRA_DATABASE_URL", pg_server.database_url(SHARED_DATABASE))
    out = tmp_path / "results"
    result = CliRunner().invoke(app, ["bench", "perf", "--sizes", "10,200", "--backends", "sqlite,postgres",
                                      "--repeats", "3", "--session-repeats", "1", "--cold-repeats", "1",
                                      "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    queries = report["latency"]["queries"]
    rows = {(r["backend"], r["records"]): r for r in report["latency"]["rows"]}
    assert sorted(rows) == [("postgres", 10), ("postgres", 200), ("sqlite", 10), ("sqlite", 200)]
    for (backend, _), row in rows.items():
        for part in ("embedding", "vector_search", "numpy_exact", "end_to_end"):
            assert row[part]["n"] >= 3 and 0 < row[part]["p50_ms"] <= row[part]["p95_ms"]
        # The floor (embedding + numpy exact) and the ratios to it, computed from the same row.
        floor = row["embedding"]["p50_ms"] + row["numpy_exact"]["p50_ms"]
        assert row["floor_p50_ms"] == pytest.approx(floor, abs=0.01)
        assert row["whole_to_floor"] == pytest.approx(row["end_to_end"]["p50_ms"] / floor, abs=0.01)
        assert row["first_search_ms"] > 0
        if backend == "sqlite":  # exact search: the same top 3 as numpy, and no recall to report
            assert row["top3_agrees_with_numpy"] == f"{queries}/{queries}" and "hnsw" not in row
            continue
        hnsw = row["hnsw"]  # the same queries through HNSW and through exact search (index scans off)
        assert hnsw["k"] == 3 and hnsw["queries"] == queries and hnsw["exact_search"]["n"] == queries
        assert 0.0 <= hnsw["recall_at_3"] <= 1.0 and isinstance(hnsw["hnsw_index_used"], bool)
    # 10 records, ef_search 100: HNSW visits every vector, so it must find what exact search finds.
    assert rows[("postgres", 10)]["hnsw"]["recall_at_3"] == 1.0
    assert report["latency"]["build"]["sqlite"]["records"] == report["latency"]["build"]["postgres"]["records"] == 200
    markdown = (out / "perf.md").read_text()
    assert "HNSW recall@3 vs exact" in markdown and "### HNSW recall against exact search" in markdown
    assert "| postgres | 10 | 1.000 | 3 |" in markdown
    sessions = report["sessions"]
    assert {r["checkpointer"] for r in sessions["runs"]} == {"sqlite", "memory"}
    assert all(r["status"] == "fixed" and 0 < r["test_share"] < 1 for r in sessions["runs"])
    cold = report["cold_start"]["commands"]
    assert cold["memory search"]["ok"] and cold["--help"]["ok"] and cold["embedding floor"]["ok"]
    assert all(c["cpu"]["n"] == c["wall"]["n"] for c in cold.values())
    ratios = report["cold_start"]["ratios"]
    assert ratios["memory_search_to_help"] == pytest.approx(
        cold["memory search"]["wall"]["p50_ms"] / cold["--help"]["wall"]["p50_ms"], abs=0.01)
    assert "Cold `memory search` / `--help`" in markdown and "whole / floor" in markdown
    # A whole `run alpha` process on an empty memory fixed the bug; its report's own test time (every run,
    # the fresh copy's included) is part of the floor it is compared with.
    assert cold["run"]["ok"] and len(cold["run"]["test_seconds"]) == 1 and cold["run"]["test_seconds"][0] > 0
    assert ratios["run_floor_ms"] == pytest.approx(
        1000 * cold["run"]["test_seconds"][0] + cold["embedding floor"]["wall"]["p50_ms"], abs=0.1)
    assert ratios["run_to_floor"] == pytest.approx(cold["run"]["wall"]["p50_ms"] / ratios["run_floor_ms"], abs=0.01)
    assert sessions["wall_to_floor"] > 1 and "Cold `run alpha`" in markdown
    # One test run in each way of judging it, and what the private root (every session step's) adds to it.
    runs = report["test_runs"]
    assert runs["modes"] and all(m["all_passed"] for m in runs["modes"].values()), runs
    assert "## One test run: judging it, and its private root" in markdown
    if runs["private_root"] == "available":
        assert isinstance(runs["private_root_extra_ms"], float)
        assert f"**{runs['private_root_extra_ms']:.1f} ms per test run**" in markdown
    for name in ("perf.json", "perf.md", "perf_latency.png", "perf_sessions_cold.png"):
        assert (out / name).stat().st_size > 1000, name


def test_unknown_backend_and_bad_sizes_are_usage_errors(tmp_path):
    from astra_memory.cli.app import app

    runner = CliRunner()
    result = runner.invoke(app, ["bench", "perf", "--backends", "nosuch", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "nosuch" in result.output
    assert runner.invoke(app, ["bench", "perf", "--sizes", "lots", "--out", str(tmp_path)]).exit_code == 2

"""`bench perf` at a tiny size produces its JSON, Markdown and PNGs in one run: SQLite search
latency beside the numpy floor over the same vectors (with the same top 3), the session with the
SQLite and the in-memory checkpointer, the test-subprocess share, and whole-process cold starts."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner


@pytest.mark.slow
def test_perf_at_a_tiny_size_writes_every_output(tmp_path):
    from astra_memory.cli import app

    out = tmp_path / "results"
    result = CliRunner().invoke(app, ["bench", "perf", "--sizes", "200", "--repeats", "3", "--session-repeats", "1",
                                      "--cold-repeats", "1", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    (row,) = report["latency"]["rows"]
    assert row["backend"] == "sqlite" and row["records"] == 200
    assert row["top3_agrees_with_numpy"] == f"{report['latency']['queries']}/{report['latency']['queries']}"
    for part in ("embedding", "vector_search", "numpy_exact", "end_to_end"):
        assert row[part]["n"] >= 3 and 0 < row[part]["p50_ms"] <= row[part]["p95_ms"]
    assert report["latency"]["build"]["sqlite"]["records"] == 200
    sessions = report["sessions"]
    assert {r["checkpointer"] for r in sessions["runs"]} == {"sqlite", "memory"}
    assert all(r["status"] == "fixed" and 0 < r["test_share"] < 1 for r in sessions["runs"])
    cold = report["cold_start"]["commands"]
    assert cold["memory search"]["ok"] and cold["--help"]["ok"]
    for name in ("perf.json", "perf.md", "perf_latency.png", "perf_sessions_cold.png"):
        assert (out / name).stat().st_size > 1000, name


def test_unknown_backend_and_bad_sizes_are_usage_errors(tmp_path):
    from astra_memory.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["bench", "perf", "--backends", "nosuch", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "nosuch" in result.output
    assert runner.invoke(app, ["bench", "perf", "--sizes", "lots", "--out", str(tmp_path)]).exit_code == 2

"""The retrieval bench: the shipped cases are a function of the corpus, the metrics mean what they
say, and on the shipped file the product ranks same-family fixes better than both baselines, with
the real packaged MiniLM (hash embeddings would say nothing about retrieval quality)."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest
from typer.testing import CliRunner

from astra_memory.bench.query_cases import SHIPPED_CASES, CaseFileError, QueryCase, load_cases
from astra_memory.bench.retrieval import Ranked, metrics, suggest_min_score
from astra_memory.context import DEFAULT_MIN_SCORE
from astra_memory.scenarios import list_scenarios
from astra_memory.testrun.symptoms import parse_failure, symptom_query


def test_shipped_cases_are_built_from_the_corpus():
    cases = load_cases(SHIPPED_CASES)
    scenarios = {s.name: s for s in list_scenarios()}
    records = {r.id: r for r in cases.records}
    assert set(records) == {f"r-{name}" for name in scenarios}, "regenerate: scripts/make_retrieval_cases.py"
    family_of = defaultdict(set)
    for s in scenarios.values():
        family_of[s.family].add(s.name)
    for name, scenario in scenarios.items():
        record = records[f"r-{name}"]
        finish = [step["args"] for step in scenario.solution if step["tool"] == "finish"][-1]
        assert record.fix == finish["fix_description"] and record.family == scenario.family
        assert record.outcome.startswith("pytest passed with exit code 0")
        assert parse_failure(record.failure).failing_tests, "the failure text is a real failing pytest run"
    for q in cases.queries:
        siblings = {f"r-{n}" for n in family_of[q.family] if n != q.scenario}
        assert set(q.relevant) == siblings and q.exclude == [f"r-{q.scenario}"]
        assert q.cohort == scenarios[q.scenario].cohort


def test_metrics_on_a_known_ranking():
    queries = [QueryCase("q1", "", "", "", ["r1"]), QueryCase("q2", "", "", "", ["r2", "r3"]),
               QueryCase("q3", "", "", "", ["r9"])]
    rankings = {"q1": Ranked(["r1", "r2"], [0.9, 0.1]), "q2": Ranked(["r1", "r4", "r3"], [0.5, 0.4, 0.3]),
                "q3": Ranked(["r1"], [0.2])}
    m = metrics(rankings, queries)
    assert m["recall@1"] == round(1 / 3, 4) and m["recall@3"] == round(2 / 3, 4)
    assert m["mrr"] == round((1 + 1 / 3 + 0) / 3, 4)
    assert suggest_min_score([0.24, 0.5], [0.1, 0.3]) == {"threshold": 0.2, "related_kept": 1.0,
                                                           "unrelated_hidden": 0.5}


def test_symptom_query_keeps_behaviour_and_the_compared_values_apart():
    output = (
        "____ test_tags_after_comma_are_trimmed ____\n\n    def test_tags_after_comma_are_trimmed():\n"
        ">       assert parse_label_tags(\"Fragile, Perishable\") == [\"fragile\", \"perishable\"]\n"
        "E       AssertionError: assert ['fragile', ' perishable'] == ['fragile', 'perishable']\n"
        "E         At index 1 diff: ' perishable' != 'perishable'\n\n"
        "tests/test_tags.py:5: AssertionError\n"
        "FAILED tests/test_tags.py::test_tags_after_comma_are_trimmed - AssertionError: assert\n"
        "____ test_now ____\n>       return slot - now\nE       TypeError: can't subtract offset-naive and "
        "offset-aware datetimes\n")
    failure = parse_failure(output)
    assert failure.failing_code[0] == 'assert parse_label_tags("Fragile, Perishable") == ["fragile", "perishable"]'
    assert "' perishable'" in failure.message  # the model still sees pytest's full message
    query = symptom_query(failure)
    assert "tags after comma are trimmed" in query and "parse_label_tags(\"Fragile, Perishable\")" in query
    assert "can't subtract offset-naive" in query
    # The assertion's operands and pytest's difference line carry the cause (the stray space): they
    # stay in the query, on their own line after the behaviour, never in the error's head line.
    head, compared = query.splitlines()[0], next(ln for ln in query.splitlines() if ln.startswith("compared: "))
    assert head == "AssertionError" and "' perishable'" not in head
    assert "At index 1 diff: ' perishable' != 'perishable'" in compared
    assert "['fragile', ' perishable'] == ['fragile', 'perishable']" in compared


def test_case_file_problems_name_the_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "record", "id": "r1"}\n')
    with pytest.raises(CaseFileError, match="bad.jsonl:1: missing"):
        load_cases(bad)
    from astra_memory.cli.app import app

    result = CliRunner().invoke(app, ["bench", "retrieval", "--cases", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2 and "is not a file" in " ".join(result.output.split())


@pytest.fixture
def one_torch_thread():
    """On an oversubscribed 2-CPU machine MiniLM is several times faster on one thread; the scores
    are the same up to float rounding. Restored afterwards."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.mark.slow
@pytest.mark.minilm
def test_shipped_cases_product_beats_both_baselines(tmp_path, one_torch_thread):
    from astra_memory.cli.app import app

    out = tmp_path / "results"
    result = CliRunner().invoke(app, ["bench", "retrieval", "--json", "--out", str(out), "--cases", str(SHIPPED_CASES)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)["sets"]["corpus"]
    assert report["embeddings"].startswith("all-MiniLM-L6-v2")
    a, v, b, c = (report["systems"][k] for k in ("product", "product_vector_only", "baseline_fix_only", "bm25"))
    assert report["queries"] >= 24
    # The product ranks a same-family fix first more often, and higher on average, than both
    # baselines, and finds one in its top 3 at least as often.
    assert a["recall@1"] > b["recall@1"] and a["recall@1"] > c["recall@1"]
    assert a["mrr"] > b["mrr"] and a["mrr"] > c["mrr"]
    assert a["recall@3"] >= b["recall@3"] and a["recall@3"] >= c["recall@3"]
    # The fusion with BM25 is what lifts it above the vector order alone (the ablation).
    assert a["mrr"] > v["mrr"] and a["recall@3"] > v["recall@3"]
    # The default minimum score is at or below what the calibration rule gives on these
    # measurements, and it hides none of the relevant hits a session's top-3 search returns.
    cohorts = report["per_cohort"]  # the same rankings, split by when each scenario was written
    assert set(cohorts) == {"design", "held-out"}
    assert sum(c["product"]["queries"] for c in cohorts.values()) == report["queries"]
    assert report["calibration"]["suggested"]["threshold"] >= DEFAULT_MIN_SCORE
    assert report["calibration"]["related_below_default"] == 0
    assert report["threshold"]["hidden_by_default_min_score"] == 0
    # beta's query still finds alpha's fix above the threshold (the demo's origin story).
    beta = next(q for q in report["per_query"] if q["id"] == "q-beta")
    alpha_score = next(h["score"] for h in beta["product_hits"] if h["id"] == "r-alpha")
    assert alpha_score >= DEFAULT_MIN_SCORE
    for name in ("retrieval.json", "retrieval.md", "retrieval_metrics.png", "retrieval_scores.png",
                 "retrieval_families.png"):
        assert (out / "corpus" / name).stat().st_size > 1000, name
    assert "recall@1" in (out / "corpus" / "retrieval.md").read_text()
    assert "relevant hits shown / hits shown" in (out / "retrieval.md").read_text()


def test_a_diagnoses_file_feeds_the_second_search(tmp_path):
    """A diagnosis per query id is searched as the model's second search; a bad line names its line."""
    from astra_memory.bench.query_cases import DEV_EXTRA_CASES, load_diagnoses
    from astra_memory.bench.retrieval import run_retrieval
    from astra_memory.stores.embeddings import HashEmbeddings

    cases = load_cases(DEV_EXTRA_CASES)
    fixes = {r.id: r.fix for r in cases.records}
    path = tmp_path / "diagnoses.jsonl"
    # The true cause as the diagnosis: the second search must find it (an upper bound, as a check).
    path.write_text("".join(json.dumps({"id": q.id, "diagnosis": f"{q.error_type}: {fixes[q.relevant[0]]}"}) + "\n"
                            for q in cases.queries))
    result = run_retrieval(DEV_EXTRA_CASES, embeddings=HashEmbeddings(), diagnoses=load_diagnoses(path))
    second = result["second_search"]
    assert second["queries"] == len(cases.queries) and second["diagnosis"] == "from a diagnoses file"
    assert second["recall@3"] >= 0.9 and second["either_recall@3"] >= result["systems"]["product"]["recall@3"]
    assert load_diagnoses(tmp_path / "absent.jsonl") == {}
    path.write_text('{"id": "q1", "diagnosis": "x"}\nnot json\n')
    with pytest.raises(CaseFileError, match=r"diagnoses.jsonl:2"):
        load_diagnoses(path)


def test_a_hand_written_diff_with_miscounted_hunks_is_recounted_keeping_its_changes():
    """Two case sets hold hand-written diffs whose @@ counts are off; the store refuses a diff that
    does not parse, so the bench recounts them (bench/retrieval.py case_diff) and keeps the change."""
    from astra_memory.bench.retrieval import case_diff
    from astra_memory.workspace.diffs import diff_problem, hunk_edits

    bad = ("--- a/app/x.py\n+++ b/app/x.py\n@@ -3,7 +3,7 @@ def f():\n     a = 1\n-    return a\n+    return a + 1\n"
           "\n@@ -20,2 +20,2 @@\n-x = 1\n+x = 2\n")
    assert diff_problem(bad)
    fixed = case_diff(bad)
    assert fixed and diff_problem(fixed) is None
    edits = hunk_edits(fixed)
    assert any("return a + 1" in e.new_text for e in edits) and any("x = 2" in e.new_text for e in edits)


def test_project_identity_counts_own_project_fixes_of_another_kind_ranked_first():
    from astra_memory.bench.query_cases import CaseSet, QueryCase, RecordCase
    from astra_memory.bench.retrieval import Ranked, project_identity

    def rec(rid, project):
        return RecordCase(rid, project, "f", "E", ["a.py"], "fix", "ok")

    records = [rec("own-other", "humanize"), rec("right", "semver"), rec("own-other-2", "toolz")]
    queries = [QueryCase("q1", "humanize", "f", "E", ["right"]), QueryCase("q2", "toolz", "f", "E", ["right"]),
               QueryCase("q3", "idna", "f", "E", ["right"])]  # q3: no record of its own project: not exposed
    cases = CaseSet(records=records, queries=queries, source="test")
    ranked = {"q1": Ranked(["own-other", "right"], [0.6, 0.5]), "q2": Ranked(["right", "own-other-2"], [0.6, 0.5]),
              "q3": Ranked(["own-other"], [0.9])}
    assert project_identity(ranked, cases) == {"exposed": 2, "own_project_other_kind_first": 1, "share": 0.5}


def test_each_sets_progress_lines_name_the_set():
    """Issue 36 leftover: with several sets, every set's progress lines read the same "(a) product: store
    + search"; a person watching a long run could not tell which set was being measured."""
    import io

    from rich.console import Console
    from rich.progress import Progress

    from astra_memory.bench.query_cases import DEV_EXTRA_CASES
    from astra_memory.bench.retrieval import run_retrieval_sets
    from astra_memory.stores.embeddings import HashEmbeddings

    made: list[Progress] = []

    def factory() -> Progress:
        made.append(Progress(console=Console(file=io.StringIO())))
        return made[-1]

    run_retrieval_sets({"dev-extra": DEV_EXTRA_CASES, "again": DEV_EXTRA_CASES}, embeddings=HashEmbeddings(),
                       progress_factory=factory)
    shown = [[task.description for task in progress.tasks] for progress in made]
    assert len(shown) == 2 and all(len(lines) == 3 for lines in shown)
    assert all(line.startswith("dev-extra: ") for line in shown[0]) and all(line.startswith("again: ") for line in shown[1])

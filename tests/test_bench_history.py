"""`bench history` on a slice of inflection's real history (tests/data/inflection/inflection.bundle):
the commits are really judged (their tests run), each confirmed fix is searched for before it is
stored, and the figures are computed from what those searches returned; a re-run only searches."""

from __future__ import annotations

import copy

from astra_memory.bench.history import (
    BLIND_GROUPS,
    BLIND_PROJECTS,
    DATA,
    DEV_PROJECTS,
    SEEN_KEPT_APART,
    SYSTEMS,
    UNSEEN_KEPT_APART,
    changed_functions,
    figures,
    group_figures,
    run_history,
    table_rows,
    write_history,
)

TITLEIZE, PASSERBY = "e32443b", "1969b3a"  # the two fixes learn confirms in the latest 16 commits


def test_functions_changed_are_read_from_the_hunks_and_the_source():
    old = "class A:\n    def f(self):\n        return 1\n\n\ndef g():\n    return 2\n\nX = 1\n"
    new = "class A:\n    def f(self):\n        return 3\n\n\ndef g():\n    return 2\n\nX = 2\n"
    diff = ("--- a/m.py\n+++ b/m.py\n@@ -1,9 +1,9 @@\n class A:\n     def f(self):\n-        return 1\n"
            "+        return 3\n \n \n def g():\n     return 2\n \n-X = 1\n+X = 2\n")
    assert changed_functions(diff, {"m.py": old}, {"m.py": new}) == ["m.py::A.f"]  # X = 2 is in no function


def test_bench_history_on_a_slice_of_inflection(tmp_path):
    result = run_history({"inflection": DEV_PROJECTS["inflection"]}, tmp_path, max_commits=16, embeddings="hash",
                         groups={"kept": ("inflection",)})
    rows = result["queries"]
    assert [r["commit"][:7] for r in rows] == [PASSERBY, TITLEIZE]  # confirmed by their tests, oldest first
    first, second = rows
    assert first["earlier"] == 0 and first["memory"] == 0 and not any(first["shown"].values())
    assert second["earlier"] == 1 and second["same_file"] == [f"learn-{first['commit']}"]
    assert second["functions"] == ["inflection.py::titleize"] and second["relevant"] == []
    # both queries have no relevant earlier fix: each counts for abstention when it was shown nothing
    for system in SYSTEMS:
        f = result["all"][system]
        assert f["with_relevant"] == 0 and f["without_relevant"] == 2
        assert f["abstained"] == sum(not r["shown"][system] for r in rows)
    # BM25 shows its top 3 of whatever is in memory: the passerby fix, not relevant to titleize's bug
    assert second["shown"]["bm25"] == [f"learn-{first['commit']}"]
    assert result["all"]["bm25"]["abstained"] == 1 and result["all"]["bm25"]["precision"] == 0.0
    assert result["cost"]["judged_this_run"] == result["cost"]["commits_judged"] > 0

    # a query whose relevant earlier fix is what the search ranked first counts at rank 1
    judged = copy.deepcopy(rows)
    judged[1]["relevant"] = [judged[1]["ranked"]["bm25"][0]]
    f = figures(judged, "bm25")
    assert (f["with_relevant"], f["recall@1"], f["recall@3"], f["precision"]) == (1, 1.0, 1.0, 1.0)
    assert (f["abstained"], f["without_relevant"]) == (1, 1)
    judged[1]["relevant"] = ["learn-some-other-commit"]
    assert figures(judged, "bm25")["recall@3"] == 0.0

    # a group of projects is reported in rows of its own, over its projects' queries only
    assert result["groups"]["kept"] == result["per_project"]["inflection"]
    names = [row[0] for row in table_rows(result)]
    assert names == ["inflection"] * len(SYSTEMS) + ["kept"] * len(SYSTEMS) + ["all"] * len(SYSTEMS)
    other = [dict(r, project="other", relevant=r["ranked"]["bm25"][:1]) for r in rows]
    grouped = group_figures(rows + other, {"kept": ("inflection",), "both": ("inflection", "other")})
    assert grouped["kept"]["bm25"]["with_relevant"] == 0 and grouped["both"]["bm25"]["with_relevant"] == 1
    assert grouped["both"]["bm25"] == figures(rows + other, "bm25")

    written = write_history(result, tmp_path, "astra-memory bench history --max-commits 16")
    assert all(len(" | ".join(row)) < 80 for row in table_rows(result))
    report = open(written["markdown"]).read()
    assert "latest-file" in report and "| kept | product |" in report and "kept: the queries of inflection." in report

    again = run_history({"inflection": DEV_PROJECTS["inflection"]}, tmp_path, max_commits=16, embeddings="hash")
    assert again["cost"]["judged_this_run"] == 0  # the verdicts come from the cache: only the searches ran
    assert [r["ranked"] for r in again["queries"]] == [r["ranked"] for r in rows]


def test_a_file_is_named_by_its_whole_name():
    from astra_memory.bench.history import names_file

    assert names_file("parse.py:12: in _handle_field", "parse.py")
    assert names_file('  File "/tmp/x/parse.py", line 3, in f', "parse.py")
    assert not names_file("test_parse.py:12: in test_numbers", "parse.py")
    assert not names_file("other/__init__.py:3: in f", "inflection/__init__.py")


def test_every_vendored_history_is_there_small_with_its_licence_and_its_line():
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    for name, bundle in {**DEV_PROJECTS, **BLIND_PROJECTS}.items():
        assert bundle.is_file() and bundle.stat().st_size < 2_000_000, name
        assert any(p.name.upper().startswith("LICEN") for p in bundle.parent.iterdir()), name
        assert f"`{name}/{name}.bundle`" in readme, name
    assert set(UNSEEN_KEPT_APART) <= set(BLIND_PROJECTS) and not set(BLIND_PROJECTS) & set(DEV_PROJECTS)
    assert set(BLIND_GROUPS["unseen"]) == set(UNSEEN_KEPT_APART)
    # a history whose search figures have been seen is never counted as unseen again (mistletoe and hyperlink were
    # searched once on 2026-12-07, sqlparse, pyjwt and h11 once on 2026-12-08)
    assert {"mistletoe", "hyperlink", "sqlparse", "pyjwt", "h11"} <= set(SEEN_KEPT_APART)
    assert not set(SEEN_KEPT_APART) & set(UNSEEN_KEPT_APART)

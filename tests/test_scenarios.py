"""Every bundled scenario is a real bug with a real fix: its acceptance tests all fail on the
untouched template, and all pass once the scripted solution's edits are applied (in a temp copy,
through the same confined ``Workspace.apply_edit`` the agent uses). Also the corpus's shape: at
least 24 scenarios in at least 8 families of at least 3, each in its own project."""

from __future__ import annotations

import collections
import json

import pytest

from astra_memory.bench.corpus import solve_all
from astra_memory.scenarios import list_scenarios

SCENARIOS = list_scenarios()


@pytest.fixture(scope="module")
def solved():
    # Two threads: each test run is its own subprocess (plugins off via the scenario's env).
    return {s.scenario.name: s for s in solve_all(SCENARIOS, workers=2)}


def test_corpus_shape():
    families = collections.Counter(s.family for s in SCENARIOS)
    assert len(SCENARIOS) >= 24 and len(families) >= 8
    assert min(families.values()) >= 3, families
    assert len({s.project for s in SCENARIOS}) == len(SCENARIOS), "every scenario is its own project"
    for s in SCENARIOS:
        tools = [step["tool"] for step in s.solution]
        assert "apply_edit" in tools and tools[-1] == "finish", s.name


@pytest.mark.parametrize("name", [s.name for s in SCENARIOS])
def test_tests_fail_on_template_and_pass_after_the_scripted_fix(solved, name):
    result = solved[name]
    before = result.before.counts
    assert not result.before.passed and before.get("passed", 0) == 0, (name, before)
    failing = before.get("failed", 0)
    assert 3 <= failing <= 6, f"{name}: {failing} failing tests on the template (want 3-6, all of them)"
    assert not result.problem, f"{name}: scripted edit did not apply: {result.problem}"
    assert result.after is not None and result.after.passed, (name, result.after and result.after.output[-800:])
    assert result.after.counts == {"passed": failing}, (name, result.after.counts)
    assert all(path.startswith("app/") for path in result.files), result.files  # tests are never edited
    assert result.finish.get("fix_description") and result.finish.get("error_type")


def test_scenarios_command_lists_every_scenario():
    from typer.testing import CliRunner

    from astra_memory.cli.app import app

    result = CliRunner().invoke(app, ["scenarios", "--json"])
    assert result.exit_code == 0, result.output
    listed = json.loads(result.stdout)
    assert {item["name"] for item in listed} == {s.name for s in SCENARIOS}
    assert all(item["family"] for item in listed)

"""Invalidate, supersede, stale, and namespaces (issue 12, parts 3 and 4), on a real SqliteStore file
and a real PostgresStore; deterministic embeddings."""

import json

import pytest

from astra_memory.context import Context
from astra_memory.errors import ConfigurationError
from astra_memory.session.run import start_session, workspace_task
from astra_memory.stores.format import format_hits
from astra_memory.stores.lifecycle import invalidate, stale_notes, supersede_earlier
from astra_memory.stores.memory import FixMemory
from astra_memory.stores.namespaces import namespace_for
from tests.conftest import BACKENDS, cli_env, run_cli
from tests.test_confirmations import BEFORE, DIFF, confirm, unified
from tests.test_replay import TEST_COMMAND, alpha_copy, fix_alpha_once

QUERY = "AssertionError: second origin rejected"


@pytest.fixture
def memory(store):
    return FixMemory(store, min_score=-1)


def ids(hits):
    return [h.record.memory_id for h in hits]


def test_an_invalidated_fix_is_kept_but_never_returned(memory):
    record = confirm(memory, "s1")
    assert invalidate(memory, record.memory_id, "breaks IPv6 origins").status == "invalidated"
    assert memory.search_codebase_memory(QUERY) == []
    kept = memory.get(record.memory_id)
    assert kept.status_reason == "breaks IPv6 origins" and len(kept.confirmations) == 1
    assert memory.list_records(include_invalidated=False) == [] and len(memory.list_records()) == 1
    confirm(memory, "s2")  # confirmed again later: still invalidated (a human said it is wrong)
    assert memory.get(record.memory_id).status == "invalidated" and memory.search_codebase_memory(QUERY) == []


def test_a_later_fix_of_the_same_lines_supersedes_and_ranks_above(memory):
    earlier = confirm(memory, "s1")
    later = confirm(memory, "s2", diff=unified(BEFORE, "def origins(raw):\n    return raw.replace(' ', '').split(',')\n"),
                    fix_description="remove every space before splitting")
    other_lines = confirm(memory, "s3", diff=unified("a = 1\n", "a = 2\n", "app/other.py"), fix_description="a")
    assert supersede_earlier(memory, later) == [earlier.memory_id]
    assert memory.get(earlier.memory_id).superseded_by == later.memory_id
    assert memory.get(other_lines.memory_id).status == "active"
    hits = memory.search_codebase_memory(QUERY, top_k=3)
    assert ids(hits).index(later.memory_id) < ids(hits).index(earlier.memory_id)
    assert ids(hits)[-1] == earlier.memory_id  # below every active fix
    assert f"superseded by: {later.memory_id}" in format_hits(hits)


def test_stale_flag_when_the_produced_lines_are_gone(memory, tmp_path):
    record = confirm(memory, "s1", diff=DIFF)
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "settings.py").write_text("def origins(raw):\n    return [o.strip() for o in raw.split(',')]\n")
    hits = memory.search_codebase_memory(QUERY)
    assert stale_notes(hits, tmp_path, "test:corsgate") == {}
    (tmp_path / "app" / "settings.py").write_text(BEFORE)  # the fix's line is gone
    notes = stale_notes(hits, tmp_path, "test:corsgate")
    assert notes == {record.memory_id: f"stale: app/settings.py changed since {record.updated_at.date()}"}
    assert stale_notes(hits, tmp_path, "test:another-project") == {}  # never for other projects
    assert notes[record.memory_id] in format_hits(hits, notes=notes)


def test_namespaces_keep_their_records_apart(store):
    shared, team = FixMemory(store, min_score=-1), FixMemory(store, min_score=-1, namespace=namespace_for("team-a"))
    mine = confirm(team, "s1")
    assert ids(team.search_codebase_memory(QUERY)) == [mine.memory_id]
    assert shared.search_codebase_memory(QUERY) == [] and shared.count() == 0
    theirs = confirm(FixMemory(store, namespace=namespace_for("team-ab")), "s2")
    assert ids(team.search_codebase_memory(QUERY)) == [mine.memory_id] and theirs.memory_id == mine.memory_id
    assert namespace_for("") == namespace_for(None) == ("astra", "fixes")
    with pytest.raises(ConfigurationError, match="namespace"):
        namespace_for("a.b")


def test_cli_invalidate_list_all_and_namespaced_export(tmp_path):
    assert run_cli("run", "alpha", "--thread-id", "ns-1", "--namespace", "team").returncode == 0
    assert json.loads(run_cli("memory", "list", "--json").stdout) == []  # the shared namespace is empty
    (record,) = json.loads(run_cli("memory", "--namespace", "team", "list", "--json").stdout)
    assert run_cli("memory", "--namespace", "team", "invalidate", record["memory_id"]).returncode == 2  # no reason
    done = run_cli("memory", "--namespace", "team", "invalidate", record["memory_id"], "--reason", "wrong header")
    assert done.returncode == 0, done.stderr
    assert json.loads(run_cli("memory", "--namespace", "team", "list", "--json").stdout) == []
    listed = run_cli("memory", "--namespace", "team", "list", "--all", env=cli_env(COLUMNS="300"))
    assert "invalidated: wrong header" in listed.stdout
    out = tmp_path / "team.jsonl"
    assert run_cli("memory", "--namespace", "team", "export", str(out)).returncode == 0
    assert json.loads(out.read_text())["status"] == "invalidated"
    assert run_cli("memory", "--namespace", "other", "import", str(out)).returncode == 0
    assert len(json.loads(run_cli("memory", "--namespace", "other", "list", "--all", "--json").stdout)) == 1
    assert run_cli("memory", "--namespace", "no.dots", "list").returncode == 2


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_an_invalidated_fix_is_not_replayed(agent, settings, tmp_path):
    memory_id = fix_alpha_once(agent, settings)
    invalidate(agent.memory, memory_id, "found wrong")
    final = start_session(agent, workspace_task(alpha_copy(tmp_path), TEST_COMMAND, settings, "inv-thread"),
                          context=Context(min_score=-1.0))
    assert final["status"] == "needs_model" and final["memory"]["hits"] == [] and final["replay"]["tried"] == []

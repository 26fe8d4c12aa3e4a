"""A fix record's id follows the project's identity (its repository), never its folder's name
(outside round 6, case 22: a fix replayed into a clone of the same repository in a folder of another
name made a second record), and records stored under the id that had the name in it stay readable,
take the same fix again, and move to their id with ``memory migrate``. On every memory backend."""

from __future__ import annotations

import json

from astra_memory.stores.record import legacy_memory_id_of, memory_id_for
from astra_memory.stores.transfer import import_file
from astra_memory.stores.upgrade import upgrade_memory
from tests.test_confirmations import confirm, memory, target  # noqa: F401  (fixtures: every backend)

REPOSITORY = "git:b2365088f0c1"


def test_the_same_fix_from_clones_in_folders_of_other_names_is_one_record(memory):  # noqa: F811
    first = confirm(memory, "in-calc", project="calc", project_id=REPOSITORY)
    second = confirm(memory, "in-clone", project="clone", project_id=REPOSITORY)
    assert second.memory_id == first.memory_id and memory.count() == 1
    record = memory.get(first.memory_id)
    assert [(c.session_id, c.project) for c in record.confirmations] == [("in-calc", "calc"), ("in-clone", "clone")]
    assert record.project == "calc"  # the name it was first stored under
    other = confirm(memory, "elsewhere", project="calc", project_id="git:another-repository")
    assert other.memory_id != first.memory_id and memory.count() == 2  # one name, two repositories: two fixes


def test_a_record_without_a_project_id_keeps_its_id_over_the_name(memory):  # noqa: F811
    kept = confirm(memory, "old", project="calc", project_id="")
    assert kept.memory_id == memory_id_for(project="calc", error_type=kept.error_type, diff=kept.diff)
    assert confirm(memory, "other-folder", project="clone", project_id="").memory_id != kept.memory_id


def test_a_record_under_its_folder_named_id_opens_takes_its_fix_and_migrates(memory, tmp_path):  # noqa: F811
    record = confirm(memory, "before", project="calc", project_id=REPOSITORY)
    legacy = legacy_memory_id_of(record)
    assert legacy and legacy != record.memory_id
    # As the version before stored it: the same content under the id over the folder's name too.
    assert memory.delete(record.memory_id)
    memory.put_record(record.model_copy(update={"memory_id": legacy}))
    assert memory.get(legacy) is not None and not memory.damaged

    again = confirm(memory, "same-folder", project="calc", project_id=REPOSITORY)
    assert again.memory_id == legacy and memory.count() == 1  # the same fix, the same record
    clone = confirm(memory, "clone", project="clone", project_id=REPOSITORY)
    assert clone.memory_id == record.memory_id and memory.count() == 2  # until `memory migrate`

    exported = tmp_path / "old-export.jsonl"  # an export made before: its id is accepted as its content's
    exported.write_text(json.dumps(memory.get(legacy).model_dump(mode="json")) + "\n")
    import_file(memory, exported)
    assert memory.count() == 2

    report = upgrade_memory(memory)
    assert (report.records_after, report.merged) == (1, 1)
    merged = memory.get(record.memory_id)
    assert sorted(c.session_id for c in merged.local_confirmations) == ["before", "clone", "same-folder"]
    assert memory.get(legacy) is None and upgrade_memory(memory).merged == 0

"""Issue #22 (B): a confirmed fix's diff is stored byte for byte (a closing blank context line is part
of its hunk), a diff that does not parse is refused on the way in (store, `memory import`), and a diff
damaged by the previous version (stripped) is repaired or marked by `memory migrate`. Real sessions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from astra_memory.errors import MemoryValidationError
from astra_memory.session.run import start_session, workspace_task
from astra_memory.stores.record import memory_id_of
from astra_memory.stores.transfer import read_records
from astra_memory.stores.upgrade import upgrade_memory
from astra_memory.workspace.diffs import diff_problem, repaired_diff
from tests.helpers import PROJECT_TESTS, call, clone, repository

TEST_COMMAND = PROJECT_TESTS
BROKEN = "    return max(low, min(value, high + 1))\n"
FIXED = "    return max(low, min(value, high))\n"
SCRIPT = [
    call("state_diagnosis", error_type="AssertionError", cause="clamp lets values one above the upper bound through.",
         files=["app/numbers.py"]),
    call("apply_edit", path="app/numbers.py", old_text=BROKEN.rstrip("\n"), new_text=FIXED.rstrip("\n")),
    call("finish", fix_description="Clamp to the upper bound itself, not one above it.", error_type="AssertionError"),
]


def _project(root: Path) -> Path:
    (root / "app").mkdir(parents=True)
    (root / "app" / "__init__.py").write_text("")
    # a function followed by a blank line: the diff of its fix ends with a blank context line
    (root / "app" / "numbers.py").write_text("def clamp(value, low, high):\n" + BROKEN + "\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_numbers.py").write_text(
        "import pytest\nfrom app.numbers import clamp\n\n"
        "@pytest.mark.parametrize('value,expected', [(5, 5), (100, 99), (120, 99)])\n"
        "def test_clamp(value, expected):\n    assert clamp(value, 0, 99) == expected\n")
    return root


def _checkout(tmp_path: Path, where: str) -> Path:
    """A clone named ``clampy`` of one repository holding ``_project``: every clone is one project."""
    origin = tmp_path / "origin"
    if not origin.exists():
        repository(_project(origin))
    return clone(origin, tmp_path / where / "clampy")


def _fixed_once(agent, settings, tmp_path) -> str:
    task = workspace_task(_checkout(tmp_path, "first"), TEST_COMMAND, settings, "blank-first")
    final = start_session(agent, {**task, "script": SCRIPT, "approve_edits": False})
    assert final["status"] == "fixed", final.get("reason")
    return final["stored_memory_id"]


def test_a_fix_followed_by_a_blank_line_is_stored_whole_and_replays_with_no_model(agent, settings, tmp_path):
    memory_id = _fixed_once(agent, settings, tmp_path)
    record = agent.memory.get(memory_id)
    assert record.diff.endswith("\n \n") and diff_problem(record.diff) is None  # byte for byte
    assert "[100-99]" in record.symptom and "[120-99]" in record.symptom  # parametrized ids kept
    task = workspace_task(_checkout(tmp_path, "second"), TEST_COMMAND, settings, "blank-second")
    final = start_session(agent, {**task, "approve_edits": False})
    assert final["status"] == "fixed", final.get("reason")
    assert final["budget"].get("model_requests", 0) == 0 and final["replay"]["replayed"] == memory_id


def test_migrate_repairs_a_stripped_diff_and_marks_one_it_cannot(agent, settings, tmp_path):
    memory_id = _fixed_once(agent, settings, tmp_path)
    memory = agent.memory
    good = memory.get(memory_id)
    damaged = good.model_copy(update={"diff": good.diff.strip()})  # what the previous version stored,
    damaged = damaged.model_copy(update={"memory_id": memory_id_of(damaged)})  # under the id of what it stored
    assert diff_problem(damaged.diff) is not None and repaired_diff(damaged.diff) == good.diff
    memory.delete(memory_id)
    memory._write(damaged)
    broken = good.model_copy(update={"diff": "@@ -1,3 +1,3 @@\n-x\n+y\n", "fix_description": "another"})
    memory._write(broken.model_copy(update={"memory_id": memory_id_of(broken)}))  # its content's id, as stored
    report = upgrade_memory(memory)
    assert report.repaired == 1 and report.marked == 1
    assert memory.get(memory_id).diff == good.diff
    marked = [r for r in memory.iter_records() if r.status == "invalidated"]
    assert len(marked) == 1 and "does not parse" in marked[0].status_reason
    assert upgrade_memory(memory).repaired == 0  # idempotent


def test_memory_import_refuses_a_diff_that_does_not_parse(agent, settings, tmp_path):
    record = agent.memory.get(_fixed_once(agent, settings, tmp_path))
    line = record.model_dump(mode="json")
    line["diff"] = record.diff.strip()
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(MemoryValidationError, match="line 1: .*diff: not a unified diff"):
        read_records(path)


# Issue 32 class 8: a file's line ends and encoding are kept byte for byte by the edit, the stored
# diff and its replay. Each project is written byte for byte (tests and source alike, as a checkout
# made on Windows is), fixed by a scripted session through the real graph, then replayed with no
# model into a second copy made the same way.
CRLF_SOURCE = b"def clamp(value, low, high):\r\n" + BROKEN.rstrip("\n").encode() + b"\r\n\r\n\r\nLIMIT = 99\r\n"
CRLF_TESTS = (b"import pytest\r\nfrom app.numbers import clamp\r\n\r\n"
              b"@pytest.mark.parametrize('value,expected', [(5, 5), (100, 99), (120, 99)])\r\n"
              b"def test_clamp(value, expected):\r\n    assert clamp(value, 0, 99) == expected\r\n")
LINE_END_CASES = {
    "crlf": CRLF_SOURCE,
    "crlf-bom-no-final-newline": b"\xef\xbb\xbf" + CRLF_SOURCE.removesuffix(b"\r\n"),
    "lf-no-final-newline": CRLF_SOURCE.replace(b"\r\n", b"\n").removesuffix(b"\n"),
    "lf-fixed-line-is-last-without-newline": b"def clamp(value, low, high):\n" + BROKEN.rstrip("\n").encode(),
    # lines end at LF only: a form feed line and a U+2028 in a comment are no line ends of the file
    "lf-form-feed-and-line-separator": (b"def clamp(value, low, high):\n" + BROKEN.encode()
                                        + b"\x0c\n# a \xe2\x80\xa8 line separator\nLIMIT = 99\n"),
    "mixed": b"def clamp(value, low, high):\n" + BROKEN.rstrip("\n").encode() + b"\r\n\nLIMIT = 99",
}
# the model's text is JSON: its line breaks are LF whatever the file's are
TWO_LINE_SCRIPT = [
    SCRIPT[0],
    call("apply_edit", path="app/numbers.py", old_text="def clamp(value, low, high):\n" + BROKEN.rstrip("\n"),
         new_text="def clamp(value, low, high):\n    # the upper bound itself, not one above it\n"
                  + FIXED.rstrip("\n")),
    SCRIPT[2],
]


def _bytes_project(root: Path, source: bytes) -> Path:
    (root / "app").mkdir(parents=True)
    (root / "app" / "__init__.py").write_bytes(b"")
    (root / "app" / "numbers.py").write_bytes(source)
    (root / "tests").mkdir()
    (root / "tests" / "test_numbers.py").write_bytes(CRLF_TESTS)
    return root


@pytest.mark.parametrize("case", sorted(LINE_END_CASES))
def test_line_ends_and_encoding_are_kept_by_the_fix_and_its_replay(agent, settings, tmp_path, case):
    source = LINE_END_CASES[case]
    origin = repository(_bytes_project(tmp_path / "origin" / "clampy", source))  # two clones: one project
    first = clone(origin, tmp_path / "first" / "clampy")
    task = workspace_task(first, TEST_COMMAND, settings, f"{case}-first")
    final = start_session(agent, {**task, "script": SCRIPT, "approve_edits": False})
    assert final["status"] == "fixed", final.get("reason")
    fixed = (first / "app" / "numbers.py").read_bytes()
    assert fixed == source.replace(BROKEN.rstrip("\n").encode(), FIXED.rstrip("\n").encode())  # one line, nothing else
    record = agent.memory.get(final["stored_memory_id"])
    assert ("\r\n" in record.diff) == (b"\r\n" in source)  # the diff is of the bytes, line ends included
    second = clone(origin, tmp_path / "second" / "clampy")
    task = workspace_task(second, TEST_COMMAND, settings, f"{case}-second")
    final = start_session(agent, {**task, "approve_edits": False})
    assert final["status"] == "fixed", final.get("reason")
    assert final["budget"].get("model_requests", 0) == 0 and final["replay"]["replayed"] == record.memory_id
    assert (second / "app" / "numbers.py").read_bytes() == fixed  # byte for byte the first fixed file


def test_a_multi_line_edit_of_a_crlf_file_is_written_in_crlf(agent, settings, tmp_path):
    root = _bytes_project(tmp_path / "clampy", CRLF_SOURCE)
    task = workspace_task(root, TEST_COMMAND, settings, "crlf-two-lines")
    final = start_session(agent, {**task, "script": TWO_LINE_SCRIPT, "approve_edits": False})
    assert final["status"] == "fixed", final.get("reason")
    fixed = (root / "app" / "numbers.py").read_bytes()
    assert b"    # the upper bound itself, not one above it\r\n" + FIXED.rstrip("\n").encode() + b"\r\n" in fixed
    assert b"\n" not in fixed.replace(b"\r\n", b"")  # no LF line end crept in


def test_an_edit_may_not_bring_a_lone_carriage_return_into_a_file_without_one(tmp_path):
    """Own outside round case 14: `x = 1\\rimport os` is one line to the diff a human approves (and a
    terminal prints `import os` over `x = 1`), two to Python. Refused, unless the file already ends its
    lines with a lone CR (an old Mac file, edited in its own style)."""
    from astra_memory.errors import WorkspaceError
    from astra_memory.workspace.files import Workspace

    (tmp_path / "app.py").write_bytes(b"x = 1\n")
    (tmp_path / "mac.py").write_bytes(b"x = 1\ry = 2\r")
    workspace = Workspace(tmp_path)
    with pytest.raises(WorkspaceError, match="carriage return"):
        workspace.apply_edit("app.py", "x = 1\n", "x = 1\rimport os\n")
    assert (tmp_path / "app.py").read_bytes() == b"x = 1\n"
    workspace.apply_edit("app.py", "x = 1\n", "x = 2\r\n")  # CR LF is a line end, not a lone CR
    workspace.apply_edit("mac.py", "y = 2\r", "y = 3\r")
    assert (tmp_path / "mac.py").read_bytes() == b"x = 1\ry = 3\r"

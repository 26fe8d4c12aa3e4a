"""A hostile model cannot crash or hang a session: every tool call ends as a result or an error observation."""

import errno
import subprocess
import sys
from pathlib import Path

import pytest

from astra_memory.errors import (
    AgentLimitError,
    ConfirmedFixGateError,
    MemoryGateError,
    WorkspaceError,
)
from astra_memory.nodes.common import call_key
from astra_memory.nodes.edit import journal_name
from astra_memory.session.run import start_session
from astra_memory.tools.guard import MAX_RESULT_CHARS, bound_text, call_guarded
from astra_memory.workspace.files import Workspace
from tests.conftest import ROOT
from tests.helpers import ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH, call, task_with_script

HOSTILE = [
    call("read_file", path="a" * 300),  # once: OSError "File name too long", the session and every resume died
    call("list_files", path="d/" * 240),
    call("search_code", pattern="^(a*)*b$"),
    call("search_code", pattern=r"(a)\1"),
    call("read_file", path="app"),
    call("read_file", path="app/blob.bin"),
    call("apply_edit", path="b" * 300, old_text="x", new_text="y"),
    call("apply_edit", path="app", old_text="x", new_text="y"),
    call("apply_edit", path="app/blob.bin", old_text="x", new_text="y"),
    call("apply_edit", path="app/latin.py", old_text="caf", new_text="cafe"),
    call("apply_edit", path="app/settings.py", old_text="import os", new_text="\ud800"),
]


def test_a_hostile_script_gets_observations_and_the_session_goes_on(agent, settings):
    task = task_with_script(settings, "t-hostile-tools", [ALPHA_DIAGNOSIS, *HOSTILE, ALPHA_FIX, FINISH])
    workspace = Path(task["workspace"])
    (workspace / "app" / "aaaa.txt").write_text("a" * 200_000 + "\n")
    (workspace / "app" / "blob.bin").write_bytes(b"\x00\xffx\x00")
    (workspace / "app" / "latin.py").write_bytes("x = 'caf\u00e9'\n".encode("latin-1"))
    final = start_session(agent, task)
    assert final["status"] == "fixed" and agent.memory.count() == 1
    answers = [m for m in final["messages"] if getattr(m, "tool_call_id", None)]
    by_call = answers[1:len(HOSTILE) + 1]  # after the diagnosis search's answer
    errors = [m.content for m in by_call if m.status == "error"]
    assert len(errors) == len(HOSTILE) - 1, errors  # all but the ^(a*)*b$ search, which simply finds nothing
    assert by_call[2].status == "success" and by_call[2].content.endswith(': "(no matches)"')  # quoted data
    assert "not an RE2 regular expression" in by_call[3].content
    assert all(len(m.content) <= MAX_RESULT_CHARS + 100 for m in answers)
    assert (workspace / "app" / "latin.py").read_bytes() == "x = 'caf\u00e9'\n".encode("latin-1")
    assert final.get("invalid_turns", 0) == 0  # failed calls are observations, not refused turns


def test_a_catastrophic_pattern_on_a_long_line_returns(tmp_path):
    (tmp_path / "long.txt").write_text("a" * 100_000 + "\n" + "aaab\n")
    code = ("import sys; from astra_memory.workspace.files import Workspace; "
            "print(Workspace(sys.argv[1]).search_code('(a*)*b'))")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)  # backtracking `re` does not end within the hour
    assert done.returncode == 0 and "long.txt:2: aaab" in done.stdout


def test_search_bounds_its_matches_and_skips_huge_files(tmp_path):
    (tmp_path / "many.txt").write_text("hit\n" * 1000)
    (tmp_path / "huge.txt").write_text("hit " * 400_000)
    hits = Workspace(tmp_path).search_code("hit")
    assert len(hits) == 101 and hits[-1].startswith("[stopped at 100 matches]")
    assert not any(h.startswith("huge.txt") for h in hits)


def test_failures_become_observations_but_rules_propagate():
    def too_long():
        raise OSError(errno.ENAMETOOLONG, "File name too long")

    assert call_guarded(too_long) == (None, "error: OSError: [Errno 36] File name too long")
    with pytest.raises(ZeroDivisionError):  # a bug of ours is not an observation (tools/guard.py: the abort rule)
        call_guarded(lambda: 1 / 0)
    assert call_guarded(lambda: (_ for _ in ()).throw(WorkspaceError("refused"))) == (None, "error: refused")
    for rule in (MemoryGateError, ConfirmedFixGateError, AgentLimitError):
        with pytest.raises(rule):
            call_guarded(lambda rule=rule: (_ for _ in ()).throw(rule("gate")))
    assert bound_text("x" * (MAX_RESULT_CHARS + 5)).endswith(f"cut at {MAX_RESULT_CHARS} of {MAX_RESULT_CHARS + 5} characters]")


@pytest.mark.parametrize("call_id", ["../../outside", "a" * 300, "x/y", "\ud800"])
def test_a_hostile_call_id_never_becomes_a_path(call_id):
    call = {"name": "apply_edit", "args": {"path": "app/x.py", "old_text": "a", "new_text": "b"}, "id": call_id}
    name = journal_name(call_key(3, 0, call))  # the journal is named by the call's place and content, not its id
    assert "/" not in name and len(name) < 80 and name.endswith(".json") and name.startswith("m3-c0-")
    assert name == journal_name(call_key(3, 0, {**call, "id": "call_0"}))
    assert name != journal_name(call_key(5, 0, call))  # another turn, the same id and arguments: another call

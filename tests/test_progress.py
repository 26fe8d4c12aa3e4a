"""Issue 36 item 4: while a node runs, a terminal shows what runs and for how long; every progress
line has its content; logs and pipes get the node lines only."""

from __future__ import annotations

import io

from rich.console import Console

from astra_memory.cli.progress import SessionProgress, node_detail
from astra_memory.session.run import start_session
from tests.helpers import ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH, call, task_with_script


def test_each_node_is_heard_as_it_starts_and_idle_at_the_end(agent, settings):
    heard: list[tuple[str, str | None]] = []
    final = start_session(agent, task_with_script(settings, "t-heard", [ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH]),
                          on_update=lambda node, update: heard.append(("done", node)),
                          on_start=lambda node: heard.append(("start", node)))
    assert final["status"] == "fixed"
    assert heard[-1] == ("start", None)
    for node in ("observe", "investigate", "test", "confirm", "store"):
        assert heard.index(("start", node)) < heard.index(("done", node)), node


def test_a_terminal_sees_what_runs_a_log_does_not(agent, settings):
    shown = io.StringIO()
    progress = SessionProgress(Console(file=shown, force_terminal=True, width=80))
    start_session(agent, task_with_script(settings, "t-term", [ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH]),
                  on_update=progress, on_start=progress.started)
    assert "running the project's tests" in shown.getvalue()
    assert "running the tests in a fresh copy" in shown.getvalue()
    logged = io.StringIO()
    progress = SessionProgress(Console(file=logged, width=80))
    start_session(agent, task_with_script(settings, "t-log", [ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH]),
                  on_update=progress, on_start=progress.started)
    text = logged.getvalue()
    assert "running the" not in text and "· confirm" in text


def test_no_progress_line_is_empty_when_the_node_said_something(agent, settings):
    lines: list[tuple[str, str]] = []
    bad = call("apply_edit", path="../outside.py", old_text="x", new_text="y")
    start_session(agent, task_with_script(settings, "t-empty", [ALPHA_DIAGNOSIS, bad, ALPHA_FIX, FINISH]),
                  on_update=lambda node, update: lines.append((node, node_detail(node, update))))
    empty = [node for node, detail in lines if not detail]
    assert empty == [], lines


def test_an_edit_that_cannot_apply_says_so_at_the_approval_step(agent, settings):
    """The new-user run on more-itertools: an edit whose old_text was not in the file was never put
    to the reviewer, and its approval line was a bare `· approve`."""
    lines: list[tuple[str, str]] = []
    missing = call("apply_edit", path="app/settings.py", old_text="no such text", new_text="y")
    task = task_with_script(settings, "t-approve-empty", [ALPHA_DIAGNOSIS, missing, ALPHA_FIX, FINISH])
    task["approve_edits"] = True
    start_session(agent, task, on_update=lambda node, update: lines.append((node, node_detail(node, update))))
    (first, *_) = [detail for node, detail in lines if node == "approve"]
    assert first.startswith("not asked"), lines


def _terminal_lines(agent, settings, thread_id: str, script: list[dict]) -> list[str]:
    """What an 80-column terminal shows of a session's progress lines (rich renders them at 80)."""
    shown = io.StringIO()
    progress = SessionProgress(Console(file=shown, force_terminal=True, width=80, color_system=None,
                                       soft_wrap=True))
    start_session(agent, task_with_script(settings, thread_id, script), on_update=progress)
    return shown.getvalue().splitlines()


def test_a_file_read_is_one_line_saying_how_much_not_the_escaped_text(agent, settings):
    """Issue 36 (new-user run on toolz): `· tools read_file returned (workspace DATA, quoted): "..."`
    printed a 1,000-line file as ~400 escaped lines at 80 columns; the steps scrolled away."""
    lines = _terminal_lines(agent, settings, "t-read-line", [
        call("read_file", path="app/settings.py"), call("search_code", pattern="def parse_allowed"),
        ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH])
    text = "\n".join(lines)
    assert "workspace DATA" not in text and '\\"' not in text and "\\n" not in text, text
    assert "· investigate   read_file app/settings.py" in text
    read = next(line for line in lines if "· tools" in line)
    assert read.split("· tools", 1)[1].split() == ["16", "line(s),", "541", "characters"], read
    words = " ".join(text.split())  # a short result is shown itself (here folded between words)
    assert "· tools app/settings.py:6: def parse_allowed_origins(raw: str) -> list[str]:" in words, text


def test_progress_lines_break_between_words_under_their_column(agent, settings):
    """At 80 columns the terminal cut `f|ailing` and `/|tmp` mid-word; now rich never has to fold
    a line: each is at most 80 wide, continuation lines start under the detail column."""
    lines = _terminal_lines(agent, settings, "t-wrap", [ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH])
    observe = next(i for i, line in enumerate(lines) if "· observe" in line)
    too_wide = [line for line in lines if len(line) > 80 and len(line.split()) > 1]  # a longer word: whole
    assert too_wide == [], too_wide
    assert lines[observe + 1].startswith(" " * 18) and not lines[observe + 1][18].isspace()
    joined = " ".join(line.strip() for line in lines[observe:observe + 4])
    assert "tests/test_cors.py::test_blank_entries_are_dropped," in joined.split()

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

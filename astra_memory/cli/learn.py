"""`astra-memory learn`: confirmed fixes from the project's own git history (astra_memory/learn/).

While it runs: one line per commit judged, with the counts so far and an estimate of the time left
(a bar on a terminal too); at its end a table of every candidate (confirmed / not a fix / cannot run
/ timeout, with reasons) that fits 80 columns whole, and the commits the filters left out, by reason.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from astra_memory.cli.common import EXIT_OK, err, fail, lit, print_json, print_table, settings_of
from astra_memory.errors import AstraError
from astra_memory.learn.options import (
    DEFAULT_EXCLUDE,
    DEFAULT_MAX_FILES,
    DEFAULT_MAX_LINES,
    DEFAULT_MESSAGE,
    DEFAULT_SOURCE,
    DEFAULT_TEST_COMMAND,
    DEFAULT_TIMEOUT_S,
    Filters,
)

LABELS = {"confirmed": "confirmed", "not_a_fix": "not a fix", "refused": "refused", "cannot_run": "cannot run", "timeout": "timeout",
          "unstable": "unstable ids", "learned": "learned before"}
PANEL = "Which commits (candidate filters)"


class LearnProgress:
    """The per-commit lines (and a bar on a terminal): counts so far and the time left, estimated
    from the commits judged so far."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.counts: Counter[str] = Counter()
        self.seconds: list[float] = []
        self.bar: Progress | None = None
        self.task = None
        self.started = time.monotonic()

    def __call__(self, row: dict[str, Any] | None, totals: dict[str, int]) -> None:
        if self.quiet:
            return
        total, done = totals["candidates"], totals["done"]
        if row is None:
            skipped = totals["skipped"]
            err.print(f"learn: {total} candidate commit(s), {skipped} left out by the filters; "
                      f"{done} judged before", highlight=False)
            if err.is_terminal and total > done:
                self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                    TimeRemainingColumn(), console=err, transient=True)
                self.bar.start()
                self.task = self.bar.add_task("judging commits", total=total, completed=done)
            return
        self.counts[row["verdict"]] += 1
        if row.get("seconds"):
            self.seconds.append(float(row["seconds"]))
        left = total - done
        eta = (f"about {round(sum(self.seconds) / len(self.seconds) * left)}s left" if self.seconds and left
               else "done" if not left else "time left unknown")
        counts = ", ".join(f"{LABELS.get(k, k)} {n}" for k, n in sorted(self.counts.items()))
        err.print(f"[{done}/{total}] {row['sha'][:8]} {lit(LABELS.get(row['verdict'], row['verdict']))}: "
                  f"{lit(row.get('reason', ''))} ({float(row.get('seconds') or 0):.1f}s; {counts}; {eta})",
                  highlight=False)
        if self.bar is not None:
            self.bar.update(self.task, completed=done)
            if not left:
                self.bar.stop()

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def print_summary(data: dict[str, Any]) -> None:
    table = Table(title=f"learned from {lit(data['workspace'])}")
    table.add_column("commit")
    table.add_column("result")
    table.add_column("why")
    for row in data["results"]:
        table.add_row(row["sha"][:8], LABELS.get(row["verdict"], row["verdict"]),  # a subject is project text
                      lit(f"{row.get('subject', '')}: {row.get('reason', '')}"))
    if data["results"]:
        print_table(table, whole=(0, 1), target=err)
    counts = ", ".join(f"{LABELS.get(k, k)} {n}" for k, n in sorted(data["counts"].items())) or "none"
    err.print(f"{data['judged']} of {data['candidates']} candidate(s) judged: {counts}", highlight=False)
    reasons = Counter(s["reason"] for s in data["skipped"])
    if reasons:
        err.print(f"left out by the filters ({len(data['skipped'])} commits):", highlight=False)
        for reason, n in reasons.most_common():
            err.print(f"  {n} x {lit(reason)}", highlight=False)
    if data["status"] != "done":
        err.print(f"not finished: `astra-memory resume {data['thread_id']}` goes on from the next commit",
                  highlight=False)


def learn(
    ctx: typer.Context,
    workspace: Annotated[Optional[Path], typer.Option(
        help="The project whose git history is learned (its folder, a git work tree).")] = None,
    since: Annotated[Optional[str], typer.Option(
        metavar="REV", help="Learn only the commits after this revision (a commit id, tag or branch).")] = None,
    max_commits: Annotated[Optional[int], typer.Option(
        min=1, metavar="N", help="Learn at most this many of the latest commits (after --since).")] = None,
    test_command: Annotated[str, typer.Option(help="The project's test command (pytest).")] = DEFAULT_TEST_COMMAND,
    python: Annotated[Optional[Path], typer.Option(
        help="The project's Python (e.g. .venv/bin/python): its folder first on the tests' PATH.")] = None,
    timeout: Annotated[float, typer.Option(
        min=1, metavar="SECONDS", help="Seconds each test run of a commit may take.")] = DEFAULT_TIMEOUT_S,
    message: Annotated[str, typer.Option(
        help="A regular expression (case-insensitive) a candidate's message matches; \"\" for every commit "
             "(default: below).", show_default=False, rich_help_panel=PANEL)] = DEFAULT_MESSAGE,
    source: Annotated[Optional[list[str]], typer.Option(
        metavar="GLOB", help=f"Source files (glob, repeatable; default {', '.join(DEFAULT_SOURCE)}).",
        rich_help_panel=PANEL)] = None,
    exclude: Annotated[Optional[list[str]], typer.Option(
        metavar="GLOB", help=f"Leave out commits that change these paths (glob, repeatable; default {', '.join(DEFAULT_EXCLUDE)}).",
        rich_help_panel=PANEL)] = None,
    max_lines: Annotated[int, typer.Option(
        min=1, metavar="N", help="Most source lines a candidate changes.", rich_help_panel=PANEL)] = DEFAULT_MAX_LINES,
    max_files: Annotated[int, typer.Option(
        min=1, metavar="N", help="Most source files a candidate changes.", rich_help_panel=PANEL)] = DEFAULT_MAX_FILES,
    thread_id: Annotated[Optional[str], typer.Option(help="This learn's thread id (starts with learn-).")] = None,
    resume: Annotated[Optional[str], typer.Option(
        "--resume", metavar="THREAD", help="Go on with a learn that was stopped, from its next commit.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object for scripts.")] = False,
) -> None:
    """Learn confirmed fixes from the project's git history: each candidate commit's tests must fail at
    its parent and pass with its source change, in fresh copies under the confirming run's isolation.

    A candidate changes test and source files and its message matches --message, by default:
    {message}
    """
    from astra_memory.learn.session import new_job, open_learner, resume_learn, start_learn, summary

    settings = settings_of(ctx)
    progress = LearnProgress(quiet=as_json)
    thread = resume or "THREAD"
    try:
        with open_learner(settings) as learner:
            if resume:
                final, ran = resume_learn(learner, resume, on_result=progress)
                if not ran and not as_json:
                    err.print(f"learn {resume} already finished; nothing to resume", highlight=False)
            else:
                if workspace is None:
                    fail("give the project with --workspace PATH (or --resume THREAD)")
                filters = Filters(message=message, source=tuple(source or DEFAULT_SOURCE),
                                  exclude=tuple(DEFAULT_EXCLUDE if exclude is None else exclude),
                                  max_lines=max_lines, max_files=max_files)
                job = new_job(workspace, settings=settings, thread_id=thread_id, test_command=test_command,
                              python=str(python) if python else None, since=since, max_commits=max_commits,
                              timeout_s=timeout, filters=filters)
                thread = job["thread_id"]
                if not as_json:
                    err.print(f"learn {job['thread_id']}: {lit(job['workspace'])} ({lit(job['project_id'])})",
                              highlight=False)
                final = start_learn(learner, job, on_result=progress)
    except AstraError as exc:
        progress.stop()
        fail(str(exc))
    except KeyboardInterrupt:
        progress.stop()
        err.print(f"stopped: `astra-memory resume {thread}` goes on from the next commit", highlight=False)
        raise typer.Exit(130) from None
    progress.stop()
    data = summary(final)
    if as_json:
        print_json(data)
    else:
        print_summary(data)
    raise typer.Exit(EXIT_OK)


learn.__doc__ = (learn.__doc__ or "").replace("{message}", escape(DEFAULT_MESSAGE))


def resume_learn_thread(ctx: typer.Context, thread_id: str, as_json: bool) -> None:
    """`astra-memory resume THREAD` for a learn thread."""
    learn(ctx, resume=thread_id, as_json=as_json, workspace=None, since=None, max_commits=None,
          test_command=DEFAULT_TEST_COMMAND, python=None, timeout=DEFAULT_TIMEOUT_S, message=DEFAULT_MESSAGE,
          source=None, exclude=None, max_lines=DEFAULT_MAX_LINES, max_files=DEFAULT_MAX_FILES, thread_id=None)

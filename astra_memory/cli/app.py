"""The `astra-memory` command: a thin layer over the library (every command calls a function scripts can call)."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from astra_memory.bench.cli import (
    bench_app,  # light: heavy imports happen when a bench runs
)
from astra_memory.cli.common import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    Given,
    JsonOpt,
    console,
    err,
    fail,
    folded,
    lit,
    print_json,
    print_records,
    settings_of,
)
from astra_memory.cli.help_text import HelpGroup
from astra_memory.cli.learn import learn, resume_learn_thread
from astra_memory.cli.memory import memory_app
from astra_memory.cli.options import session_options
from astra_memory.cli.prices import prices
from astra_memory.cli.progress import SessionProgress
from astra_memory.context import Context
from astra_memory.errors import AstraError
from astra_memory.learn.options import is_learn_thread
from astra_memory.session.hints import program, resume_command
from astra_memory.settings import Settings, load_dotenv
from astra_memory.thread_names import check_thread_id

app = typer.Typer(help="A coding agent that remembers every bug fix it confirmed.", no_args_is_help=True,
                  pretty_exceptions_enable=False, cls=HelpGroup)
app.add_typer(memory_app, name="memory")
app.add_typer(bench_app, name="bench")


@app.callback()
def _database(ctx: typer.Context, database_url: Annotated[Optional[str], typer.Option(
        "--database-url", metavar="URL", help="One PostgreSQL database for checkpoints, memory and cost ledger "
        "(ASTRA_DATABASE_URL; default: SQLite files under ASTRA_HOME).")] = None) -> None:
    ctx.obj = Given(database_url=database_url or None)  # the commands read it with settings_of(ctx)
    try:
        load_dotenv()  # our .env (never the working folder's), below the environment (settings.py)
    except AstraError as exc:
        fail(str(exc))


STATUS_STYLE = {"fixed": "green", "nothing_to_fix": "cyan", "failed": "red", "budget_exhausted": "yellow",
                "unconfirmed": "magenta", "cannot_run": "magenta", "needs_model": "magenta"}
# Ends after which a --workspace project holds edits that were not confirmed (`undo` puts it back).
# `run --help` panels (the shared options' panels are in context.py): each fits 80 columns.
WORKSPACE = "Workspace"
OutputJsonOpt = Annotated[bool, typer.Option("--json", metavar="", help="Print one JSON object for scripts.", rich_help_panel="Output")]
# Ended on something the user must change (the test environment, a model to configure): a usage exit.
USAGE_STATUSES = ("cannot_run", "needs_model")


def _preflight(model: Optional[str], context: Context, workspace: Optional[Path] = None,
               test_command: Optional[str] = None, python: Optional[Path] = None) -> None:
    """Before any work (astra_memory/session/preflight.py): the workspace and the test command; a live model's
    cost approval, an API key the server accepts (its model list, which is free), a known price, sane limits."""
    from astra_memory.session.preflight import check_session

    check_session(model, context, workspace=workspace, test_command=test_command, probe_key=True,
                  python=str(python) if python else None)


def _session_exit(summary: dict) -> int:
    if summary["status"] in USAGE_STATUSES:
        return EXIT_USAGE
    return EXIT_OK if summary["status"] in ("fixed", "nothing_to_fix") else EXIT_FAILED


def cost_line(model: str | None, cost_usd: float, input_tokens: int = 0, output_tokens: int = 0,
              open_requests: int = 0, open_usd: float = 0.0) -> str:
    """What a session cost, said plainly (a scripted session is free); requests cut off before the
    ledger heard their outcome are counted at their worst case, and the line says how much of it."""
    if not model or model == "scripted":
        return "cost scripted: $0"
    cut = (f"; ${open_usd:.4f} of it reserved for {open_requests} request(s) cut off, counted at their worst "
           f"case (`{program()} cost` lists them as open)") if open_requests else ""
    return f"cost ${cost_usd:.4f} ({input_tokens:,} input + {output_tokens:,} output tokens, model {model}{cut})"


def said(line: str) -> None:
    """One of a session summary's lines, two spaces in; on a terminal folded between words."""
    console.print("  " + folded(line), markup=False, highlight=False)


def _print_summary(summary: dict) -> None:
    style = STATUS_STYLE.get(summary["status"] or "", "white")
    label = " (scripted model)" if summary["model"] == "scripted" else f" (model {summary['model']})"
    reason = summary["reason"] or ""
    if summary.get("next_command"):  # its command is printed below, whole; the reason would say it twice
        from astra_memory.models.advice import RERUN_ADVICE

        reason = reason.split(" " + RERUN_ADVICE, 1)[0]
    head = f"{summary['thread_id']}: {summary['status']}{label} — "  # on a terminal the rest folds between words
    console.print(f"[bold]{lit(summary['thread_id'])}[/bold]: [{style}]{lit(summary['status'])}[/{style}]"
                  f"{lit(label)} — {lit(folded(reason, first=len(head)))}", highlight=False)
    said("model requests {}, tool calls {}, test runs {}, memory hits {}{}".format(
        summary["model_requests"], summary["tool_calls"], summary["test_runs"], len(summary["memory_hits"]),
        f", stored {summary['stored_memory_id']}" if summary["stored_memory_id"] else ""))
    if summary.get("next_command"):  # the advice's command, broken between options so it copies whole
        from astra_memory.models.advice import shell_lines

        console.print("  to go on with a live model (each request costs money; the budget caps it):", markup=False)
        words = [program(quoted=False) if word == "astra-memory" else word for word in summary["next_command"]]
        for line in shell_lines(words, max(40, console.width - 4)):  # the program as this shell finds it
            console.print("    " + line, markup=False, highlight=False)
        said("(or set ASTRA_MODEL, ASTRA_APPROVE_LIVE_COST=1 and ASTRA_SESSION_BUDGET_USD; "
             "LangGraph Studio: docs/studio.md)")
    said(cost_line(summary["model"], summary["cost_usd"], summary["input_tokens"], summary["output_tokens"],
                   summary.get("open_requests", 0), summary.get("open_usd", 0.0)))
    tried = [f"{len(summary.get(key) or [])} {what}" for key, what in (
        ("memory_attempts", "shown"), ("attempts_recorded", "recorded"), ("repeats_refused", "repeats refused"))
        if summary.get(key)]
    if tried:  # `memory list --attempts` shows them
        console.print("  failed attempts (did not pass): " + ", ".join(tried), markup=False, highlight=False)
    from astra_memory.nodes.report import LEAVES_EDITS  # loaded already: the summary came from it

    left = list(dict.fromkeys(e["path"] for e in summary.get("edits") or []))
    leaves = left and summary["status"] in LEAVES_EDITS and summary.get("scenario") is None  # your project
    if leaves and summary.get("left_diff") is not None:  # one change per file: before the session -> now
        console.print("  what the session leaves in your project (before it -> now):", markup=False)
        console.print(summary["left_diff"] or "  (nothing: the files are as they were)", highlight=False,
                      markup=False)
    elif summary["diff"]:
        console.print(summary["diff"], highlight=False, markup=False)
    if leaves:
        said(f"left in your project, not confirmed: {', '.join(left)}; to put back what was there before "
             "the session:")
        console.print(f"    {program()} undo {summary['thread_id']}", markup=False,
                      highlight=False)  # the command alone on its line: never cut by the wrap, copied whole


@app.command()
@session_options
def run(
    ctx: typer.Context,
    scenario: Annotated[Optional[str], typer.Argument(help="Bundled scenario name (see `scenarios`).")] = None,
    workspace: Annotated[Optional[Path], typer.Option(help="Your own project, fixed in place.",
                                                      rich_help_panel=WORKSPACE)] = None,
    test_command: Annotated[Optional[str], typer.Option(help="Test command for --workspace.",
                                                        rich_help_panel=WORKSPACE)] = None,
    thread_id: Annotated[Optional[str], typer.Option(help="Session id (default: a new one).",
                                                     rich_help_panel=WORKSPACE)] = None,
    python: Annotated[Optional[Path], typer.Option(
        "--python", metavar="PATH", help="The project's interpreter for --workspace (default: the shell's active "
        "virtualenv, else a .venv in the workspace, else the shell's PATH).", rich_help_panel=WORKSPACE)] = None,
    protect: Annotated[Optional[list[str]], typer.Option(
        "--protect", metavar="PATH", help="A workspace path the agent may not edit, besides the tests it "
        "finds itself (repeat for more).", rich_help_panel=WORKSPACE)] = None,
    as_json: OutputJsonOpt = False,
    given: dict[str, Any] | None = None,
) -> None:
    """Run one session: on a fresh copy of a bundled scenario, or on your project in place."""
    from astra_memory.scenarios import check_scenario_name

    if scenario is not None and workspace is None:
        try:  # before anything heavy is imported or loaded: a typo is answered at once, with the closest names
            check_scenario_name(scenario)
        except AstraError as exc:
            fail(str(exc))
    from astra_memory.cli.approval import approval_default, ask_on_terminal, interactive
    from astra_memory.nodes.report import summarize
    from astra_memory.scenarios import load_scenario
    from astra_memory.session.run import (
        SessionError,
        claimed,
        fresh_run_dir,
        new_thread_id,
        open_agent,
        pending_approval,
        scenario_task,
        start_session,
        workspace_task,
    )

    settings, model = settings_of(ctx), None
    if (scenario is None) == (workspace is None):
        fail("give either a SCENARIO name or --workspace PATH --test-command CMD")
    if workspace is not None and not test_command:
        fail("--workspace needs --test-command (e.g. --test-command 'python -m pytest -q')")
    if thread_id is not None and is_learn_thread(thread_id):  # `resume` gives those to `learn` (cli/learn.py)
        fail(f"a session's thread id may not start with 'learn-' (a learn's do): {thread_id!r}")
    try:
        tid = check_thread_id(thread_id) if thread_id is not None else new_thread_id(scenario or "session")
        context = replace(Context(), **(given or {}))
        if context.approve_edits is None:
            context = replace(context, approve_edits=approval_default(workspace_run=workspace is not None,
                                                                      interactive=interactive()))
        model = context.model or "scripted"
        _preflight(model, context, workspace, test_command, python)
        with open_agent(settings) as agent, claimed(agent, tid):
            fresh_run_dir(agent, tid)
            if scenario is not None:
                task = scenario_task(load_scenario(scenario), settings, tid, model=model, protect=protect or [])
            else:
                task = workspace_task(workspace, test_command, settings, tid, model=model, protect=protect or [],
                                      python=str(python) if python else None)
            err.print(f"[bold]session {lit(tid)}[/bold] ({lit(task['project'])}, model {lit(model)}); "
                      f"data in {lit(settings.home)}", highlight=False)
            progress = SessionProgress(err, quiet=as_json)
            final = start_session(agent, task, context=replace(context, model=model), on_update=progress,
                                  on_approval=ask_on_terminal(err) if context.approve_edits else None,
                                  on_start=progress.started)
            waiting = pending_approval(agent, tid)
    except SessionError as exc:  # a bug of ours stopped it (status error): one line, resumable
        fail(str(exc), EXIT_FAILED)
    except AstraError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        _interrupted(tid, settings, model)
    _finish(summarize(final), waiting, as_json)


def _finish(summary: dict, waiting: dict | None, as_json: bool, **extra: Any) -> None:
    """Print the session's end (or that it waits for an approval) and exit with its code."""
    if waiting is not None:
        summary = {**summary, "status": "waiting_for_approval",
                   "reason": f"an edit to {waiting['path']} waits for your answer; "
                             f"run `{resume_command(summary['thread_id'], summary.get('model'))}` to answer it"}
    print_json({**summary, **extra}) if as_json else _print_summary(summary)
    raise typer.Exit(EXIT_FAILED if waiting is not None else _session_exit(summary))


CANCEL_WINDOW_S = 2.0  # after a Ctrl-C on a terminal: a second one within this time cancels the session


def _cancel_window() -> float:
    raw = os.environ.get("ASTRA_CANCEL_WINDOW_S", "").strip()  # tests: a window without a terminal
    if raw:
        return float(raw)
    return CANCEL_WINDOW_S if sys.stdin.isatty() and sys.stderr.isatty() else 0.0


def _interrupted(thread_id: str, settings: Settings, model: str | None) -> None:
    """Ctrl-C: the session stopped at its last checkpoint; say how to go on (exit 130, as shells do).
    On a terminal a second Ctrl-C within ``CANCEL_WINDOW_S`` cancels it (`resume` then refuses it
    unless given --uncancel)."""
    err.print(f"\ninterrupted: session {thread_id} stopped at its last checkpoint; continue it with\n"
              f"  `{resume_command(thread_id, model)}`", markup=False, highlight=False)  # a line of its own
    window = _cancel_window()
    if window > 0:
        try:  # the prompt inside: a Ctrl-C right after it still cancels
            err.print(f"press Ctrl-C again within {window:g}s to cancel it", markup=False, highlight=False)
            time.sleep(window)
        except KeyboardInterrupt:
            from astra_memory.session.run import mark_cancelled

            mark_cancelled(settings, thread_id, "Ctrl-C twice")
            err.print(f"cancelled: session {thread_id}; `{resume_command(thread_id, model, '--uncancel')}` continues it",
                      markup=False, highlight=False)
    raise typer.Exit(EXIT_INTERRUPTED)


@app.command()
@session_options
def resume(ctx: typer.Context, thread_id: str, as_json: OutputJsonOpt = False,
           uncancel: Annotated[bool, typer.Option(
               "--uncancel", metavar="", help="Continue a session that was cancelled (`astra-memory cancel`, Ctrl-C twice).")] = False,
           given: dict[str, Any] | None = None) -> None:
    """Continue an interrupted session from its last checkpoint, under the knobs it started with
    (options given again win)."""
    from astra_memory.cli.approval import ask_on_terminal
    from astra_memory.nodes.report import summarize
    from astra_memory.session.run import (
        SessionError,
        finished,
        open_agent,
        pending_approval,
        resume_session,
        resumed_context,
        thread_state,
    )

    if is_learn_thread(thread_id):  # a learn (astra_memory/learn/): goes on from its next commit
        resume_learn_thread(ctx, thread_id, as_json)
    model = None  # the session's, once read: the hint after a Ctrl-C names what resuming it needs
    try:
        check_thread_id(thread_id)
        with open_agent(settings_of(ctx)) as agent:
            context = resumed_context(agent, thread_id, given)
            model = context.model
            snapshot = thread_state(agent, thread_id)
            if not finished(snapshot):  # None: registered by `run`, killed before its first checkpoint
                _preflight(context.model, context)  # the key probe asks the session's server
            progress = SessionProgress(err, quiet=as_json)
            final, ran = resume_session(agent, thread_id, context=context, on_update=progress,
                                        on_approval=ask_on_terminal(err), uncancel=uncancel,
                                        on_start=progress.started)
            waiting = pending_approval(agent, thread_id)
    except SessionError as exc:  # a bug of ours stopped it again (status error): one line, resumable
        fail(str(exc), EXIT_FAILED)
    except AstraError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        _interrupted(thread_id, settings_of(ctx), model)
    summary = summarize(final)
    if not ran:
        err.print(f"thread {thread_id} already finished ({summary['status']}); nothing to resume", markup=False)
        changed = sorted(set(given or {}) - {"approve_live_cost"})
        if changed:  # `raise max_model_requests (--max-model-requests ...)` leads here: say where it applies
            from astra_memory.models.advice import shell_lines
            from astra_memory.session.hints import rerun_words

            task = final.get("task") or {}
            err.print(folded(f"the options given ({', '.join(changed)}) apply to a session that goes on; a "
                             "finished one does not: run it again as a new session with them:", first=0, out=err),
                      markup=False, highlight=False)
            for line in shell_lines(rerun_words(task, {**(task.get("knobs") or {}), **(given or {})}),
                                    max(40, err.width - 4)):
                err.print("    " + line, markup=False, highlight=False)
    _finish(summary, waiting, as_json, resumed=ran)


@app.command()
def cancel(ctx: typer.Context, thread_id: str) -> None:
    """Stop a session on purpose: it is listed `cancelled`, and `resume` refuses it unless given --uncancel."""
    from astra_memory.session.run import cancel_session, open_agent, thread_model

    try:
        check_thread_id(thread_id)
        with open_agent(settings_of(ctx)) as agent:
            cancel_session(agent, thread_id)
            model = thread_model(agent, thread_id)
    except AstraError as exc:
        fail(str(exc))
    err.print(f"session {thread_id} cancelled; `{resume_command(thread_id, model, '--uncancel')}` continues it",
              markup=False, highlight=False)


@app.command()
def undo(ctx: typer.Context, thread_id: str, as_json: JsonOpt = False) -> None:
    """Put back what a session's edits replaced in your project (from its snapshot), if nothing else
    changed those files since; all files or none."""
    from astra_memory.session.run import open_agent
    from astra_memory.session.undo import undo_session

    try:
        check_thread_id(thread_id)
        with open_agent(settings_of(ctx)) as agent:
            done = undo_session(agent, thread_id)
    except AstraError as exc:
        fail(str(exc))
    if as_json:
        print_json(done)
        return
    if not done["restored"] and not done["already"]:
        err.print(f"session {thread_id} edited nothing; nothing to undo", markup=False, highlight=False)
    for rel in done["restored"]:
        console.print(f"restored {lit(rel)} as it was before session {lit(thread_id)}", highlight=False)
    for rel in done["already"]:
        console.print(f"{lit(rel)} is already as it was before the session", highlight=False)


threads_app = typer.Typer()
app.add_typer(threads_app, name="threads")


@threads_app.callback(invoke_without_command=True)
def threads(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """List sessions with their status and last node; `threads delete ID` deletes one."""
    if ctx.invoked_subcommand is not None:
        return
    from astra_memory.session.run import list_threads, open_reader

    try:
        with open_reader(settings_of(ctx)) as agent:
            rows = list_threads(agent)
    except AstraError as exc:
        fail(str(exc))
    for row in rows:  # said once, on stderr: stdout (the JSON too) stays the listing
        if row.get("damaged"):
            err.print(f"note: {row['damaged']}", markup=False, highlight=False)
    if as_json:
        return print_json(rows)
    if not rows:
        return console.print("no sessions yet")
    print_records(["thread", "status", "last node", "next", "project", "updated"],
                  [[r["thread_id"], r["status"] or "", r["last_node"] or "", ",".join(r["next"]), r["project"] or "",
                    str(r["updated"] or "")[:19]] for r in rows], whole=(0, 5))


@threads_app.command("delete")
def delete_thread(ctx: typer.Context, thread_id: str) -> None:
    """Delete a session: its checkpoints, its saved writes and its registration, even when its checkpoint
    cannot be read (listed `unreadable`). Refused while another process runs it. Its run folder and
    any fix it stored are kept."""
    from astra_memory.session.run import delete_session, open_agent

    try:
        check_thread_id(thread_id)
        with open_agent(settings_of(ctx)) as agent:
            done = delete_session(agent, thread_id)
    except AstraError as exc:
        fail(str(exc))
    kept = f"; its run folder {done['run_dir']} is kept" if done["run_dir"] else ""
    console.print(f"deleted session {thread_id}{kept}", markup=False, highlight=False, soft_wrap=True)


@app.command()
def graph(
    mermaid: Annotated[bool, typer.Option("--mermaid", metavar="", help="Print the graph as Mermaid (the default).")] = True,
    readme: Annotated[Optional[Path], typer.Option(help="Rewrite the generated graph block in this file.")] = None,
    svg: Annotated[Optional[Path], typer.Option(
        help="Write the graph as an SVG picture to this file (drawn offline; open it in a browser).")] = None,
) -> None:
    """The agent graph as a picture (Mermaid, or an SVG file), drawn from the compiled graph itself."""
    from astra_memory.graph.picture import mermaid as draw
    from astra_memory.graph.picture import update_readme

    if svg is not None:
        from astra_memory.graph.svg import write_svg

        try:
            written = write_svg(svg)
        except OSError as exc:
            fail(f"cannot write {svg}: {exc.strerror or exc}")
        err.print(f"{written}: the graph as SVG (open it in a browser)", markup=False, highlight=False)
        return
    if readme is None:
        sys.stdout.write(draw())
        return
    try:
        changed = update_readme(readme)
    except (OSError, ValueError) as exc:
        fail(str(exc))
    err.print(f"{readme}: graph block {'updated' if changed else 'already current'}", markup=False)


@app.command()
def scenarios(as_json: JsonOpt = False) -> None:
    """List the bundled scenarios."""
    from astra_memory.scenarios import list_scenarios

    items = list_scenarios()
    if as_json:
        return print_json([{"name": s.name, "family": s.family, "project": s.project, "title": s.title}
                            for s in items])
    print_records(["name", "family", "project", "title"], [[s.name, s.family, s.project, s.title] for s in items])


@app.command()
@session_options
def demo(ctx: typer.Context, as_json: OutputJsonOpt = False, given: dict[str, Any] | None = None) -> None:
    """The memory demo: alpha stores a fix, beta finds it before editing anything, alpha again is replayed."""
    from contextlib import nullcontext

    from astra_memory.backends.open import open_cost_ledger
    from astra_memory.models.live import is_live
    from astra_memory.session.demo import demo_memory_note, run_demo

    settings = settings_of(ctx)
    if (given or {}).get("approve_edits"):
        fail("the demo runs two bundled scenarios unattended; --approve-edits is for `run` and `resume`")
    context = replace(Context(), **(given or {}))
    model = context.model or "scripted"
    context = replace(context, model=model, approve_edits=False)

    def on_session(name: str, info: dict) -> None:
        if not as_json:
            err.print(f"[bold]session {lit(name)}[/bold] (thread {lit(info['thread_id'])})", highlight=False)

    try:
        _preflight(model, context)
        # Live demo sessions are charged to the main data directory's ledger, so the total limit
        # covers them too (each demo run has its own fresh data directory otherwise).
        if is_live(model):
            settings.ensure_home()
        opened = open_cost_ledger(settings) if is_live(model) else nullcontext(None)
        progress = SessionProgress(err, quiet=as_json)
        with opened as ledger:
            evidence = run_demo(settings, model=model, context=replace(context, ledger=ledger) if ledger else None,
                                on_session=on_session, on_update=progress, on_start=progress.started)
    except AstraError as exc:
        fail(str(exc))
    if as_json:
        print_json(evidence)
    else:
        rows = []
        for s in evidence["sessions"]:
            hits = "; ".join(f"{h['score']:.4f} from {h['session_id']}" for h in s["memory_hits_before_first_edit"])
            rows.append([s["scenario"], s["thread_id"], s["status"], hits or "none", str(s["model_requests"]),
                         str(s["tool_calls"]), f"{s['cost_usd']:.4f}", (s["stored_memory_id"] or "")
                         + (" (replayed)" if s.get("replayed_memory_id") else ""),
                         ("passed: " if s["original_tests_passed"] else "FAILED: ") + s["original_tests_outcome"]])
        # Wide: one table; below 100 columns (or into a file): one block per session, nothing cut.
        print_records(["session", "thread", "status", "memory hits before first edit", "model requests",
                       "tool calls", "cost USD", "stored memory", "original tests"], rows,
                      title=f"Evidence (model: {evidence['model']})", whole=(0, 1, 2, 4, 5, 6, 7))
        console.print(cost_line(evidence["model"], evidence["cost_usd"]) + f" for all {len(evidence['sessions'])} sessions", highlight=False)
        prose, commands = demo_memory_note(evidence["data_dir"]).split("\n", 1)
        for line in (f"evidence: {evidence['data_dir']}/evidence.json  (wall time {evidence['wall_time_s']}s)", prose):
            console.print(folded(line, first=0, indent=2), markup=False, highlight=False)
        console.print(commands, markup=False, highlight=False)  # each command whole, on lines of its own
    ok = all(s["status"] == "fixed" and s["original_tests_passed"] for s in evidence["sessions"])
    raise typer.Exit(EXIT_OK if ok else EXIT_FAILED)


@app.command()
def cost(ctx: typer.Context, as_json: JsonOpt = False,
         thread: Annotated[Optional[str], typer.Option(help="Also list this session's requests one by one.")] = None,
         ) -> None:
    """Show the cost ledger: per session requests, tokens and spend, and the total.

    Spend counts a request whose outcome is unknown (the process died during it) at its reserved
    worst case, as the limits do.
    """
    from astra_memory.backends.open import open_cost_ledger
    from astra_memory.costs.ledger import ledger_path_for
    from astra_memory.db.postgres import redact_url
    from astra_memory.models.live import total_limit

    settings = settings_of(ctx)
    path = redact_url(settings.database_url) if settings.database_url else ledger_path_for(settings.checkpoint_path)
    try:
        if thread is not None:
            check_thread_id(thread)
        limit = total_limit(Context())
        if settings.database_url or Path(path).exists():  # a read-only look: no empty SQLite file is created
            with open_cost_ledger(settings) as ledger:
                sessions = [u.to_dict() for u in ledger.sessions()]
                total = ledger.total().to_dict()
                requests = ledger.requests(thread) if thread else None
        else:
            sessions, total, requests = [], {"requests": 0, "open_reservations": 0, "failed": 0, "input_tokens": 0,
                                             "output_tokens": 0, "spent_usd": 0.0}, [] if thread else None
    except AstraError as exc:
        fail(str(exc))
    if as_json:
        data = {"ledger": str(path), "sessions": sessions, "total": total, "total_limit_usd": limit}
        if requests is not None:
            data["requests"] = requests
        return print_json(data)
    if not sessions:
        console.print(f"no live model requests yet (ledger {path})", markup=False, highlight=False)
    else:
        rows = [[u["thread_id"], u["model"] or "", str(u["requests"]), str(u["open_reservations"]), str(u["failed"]),
                 str(u["input_tokens"]), str(u["output_tokens"]), f"{u['spent_usd']:.6f}",
                 "" if u["limit_usd"] is None else f"{u['limit_usd']:.4f}"] for u in sessions]
        rows.append(["total", "", str(total["requests"]), str(total["open_reservations"]), str(total["failed"]),
                     str(total["input_tokens"]), str(total["output_tokens"]), f"{total['spent_usd']:.6f}",
                     f"{limit:.4f}"])
        print_records(["session", "model", "requests", "open", "failed", "input tokens", "output tokens",
                       "spent USD", "limit USD"], rows, title=f"Cost ledger {path}", whole=(0, 2, 3, 4, 5, 6, 7, 8))
    if total["open_reservations"]:
        console.print(f"open: {total['open_reservations']} request(s) whose outcome never reached the ledger (a process "
                      "killed mid-request), counted in spent at their reserved worst case", markup=False,
                      highlight=False)
    if requests:
        print_records(["request", "state", "reserved USD", "cost USD", "input", "output", "reserved at", "note"],
                      [[r["request_id"], r["state"], f"{r['reserved_usd']:.6f}",
                        "" if r["cost_usd"] is None else f"{r['cost_usd']:.6f}", str(r["input_tokens"]),
                        str(r["output_tokens"]), r["reserved_at"][:19], r["note"] or ""] for r in requests],
                      whole=(0, 2, 3, 4, 5, 6))


# -- memory commands ----------------------------------------------------------------------------

app.command()(prices)  # astra_memory/cli/prices.py: what the cost guard charges, and its source
app.command()(learn)  # astra_memory/cli/learn.py: confirmed fixes from the project's git history


@app.command()
def mcp(ctx: typer.Context,
        http: Annotated[Optional[int], typer.Option("--http", metavar="PORT", min=1, max=65535,
                                                    help="Serve streamable HTTP on 127.0.0.1:PORT (default: stdio).")] = None,
        allow: Annotated[Optional[list[Path]], typer.Option(
            "--allow", metavar="PATH", help="A folder the server may work in, besides the client's MCP roots "
            "(repeat for more).")] = None) -> None:
    """Serve confirmed-fix memory to any coding agent over MCP (docs/mcp.md)."""
    from astra_memory.mcp_server.server import serve

    serve(http_port=http, allow=allow or [], settings=settings_of(ctx))


def main() -> None:
    """The command, with the last resort for data errors no command expected (a disk that filled up
    mid-command, a folder made read-only): a named message and exit 2, never a traceback."""
    from astra_memory.db.datafiles import explain, file_of, storage_errors

    try:
        app()
    except storage_errors() as exc:
        try:
            home = Settings().home
        except AstraError:
            home = Path(".astra")
        err.print("[red]error:[/red] ", end="")
        err.print(str(explain(exc, file_of(exc, home))), markup=False, highlight=False)
        sys.exit(EXIT_USAGE)


if __name__ == "__main__":
    main()

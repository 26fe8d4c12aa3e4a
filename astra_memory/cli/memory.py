"""`astra-memory memory ...`: inspect and manage the memory of confirmed fixes.

These commands open only the fix memory (memory_only.py): no graph, nodes or model client, so a
cold `memory search` pays for the embedding model and little else.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Optional

import typer

from astra_memory.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    JsonOpt,
    child_env,
    console,
    err,
    fail,
    folded,
    folded_lines,
    given_of,
    lit,
    print_json,
    print_records,
    settings_of,
)
from astra_memory.context import Context
from astra_memory.errors import AstraError

memory_app = typer.Typer(help="Inspect and manage the memory of confirmed fixes.", no_args_is_help=True)


@memory_app.callback()
def _memory_options(ctx: typer.Context, namespace: Annotated[Optional[str], typer.Option(
        "--namespace", help="The memory namespace these commands use (ASTRA_NAMESPACE; default the shared one).")]
        = None) -> None:
    ctx.obj = replace(given_of(ctx), namespace=namespace)  # the memory commands' context inherits it


def _namespace(ctx: typer.Context) -> str | None:
    """The namespace `memory --namespace` gave (None: ASTRA_NAMESPACE, else the shared default)."""
    return given_of(ctx).namespace


def _record_row(record) -> list[str]:
    return [record.memory_id, record.project, record.error_type, ", ".join(record.file_paths),
            record.fix_description, record.timestamp.isoformat()[:19]]


DAMAGED_SHOWN = 10  # damaged rows named one a line; the rest counted


def _damaged_note(damaged: dict[str, str]) -> None:
    """The damaged rows a command's reads skipped, counted and named on stderr (stdout stays the result,
    JSON included): a row edited by hand is skipped, never the end of the command, and never silent."""
    if not damaged:
        return
    err.print(f"note: {len(damaged)} damaged record(s) skipped (`astra-memory memory show ID` says what is wrong, "
              f"`astra-memory memory delete ID` removes it):", markup=False, highlight=False)
    for key, problem in list(damaged.items())[:DAMAGED_SHOWN]:
        err.print(f"  {lit(key)}: {lit(problem)}", highlight=False)  # stored text: never markup, no raw ESC
    if len(damaged) > DAMAGED_SHOWN:
        err.print(f"  and {len(damaged) - DAMAGED_SHOWN} more", highlight=False)


@memory_app.command("search")
def memory_search(ctx: typer.Context, query: str,
                  error_type: Annotated[Optional[str], typer.Option(help="Exact error type filter.")] = None,
                  top_k: Annotated[int, typer.Option(help="1-10 results.")] = 3,
                  project: Annotated[Optional[Path], typer.Option(
                      help="Search for the project in this folder (who it is: its repository, not its "
                           "name): its fixes confirmed again or replayed rank first.")] = None,
                  as_json: JsonOpt = False) -> None:
    """Search confirmed fixes by symptom."""
    from astra_memory.backends.memory_only import open_memory
    from astra_memory.stores.format import format_hits_for_people
    from astra_memory.workspace.identity import project_identity

    if project is not None and not project.is_dir():
        fail(f"--project {project} is not a folder: give the folder of the project the search is for")
    try:
        project_id = project_identity(project, settings_of(ctx).home).project_id if project is not None else None
        with open_memory(settings_of(ctx), namespace=_namespace(ctx), read_only=True) as memory:
            hits = memory.search_codebase_memory(query, error_type=error_type, top_k=top_k, project_id=project_id)
    except AstraError as exc:
        fail(str(exc))
    _damaged_note(memory.damaged)
    if as_json:
        return print_json([h.to_dict() for h in hits])
    console.print(folded_lines(format_hits_for_people(hits, query=query, project_id=project_id), indent=5),
                  markup=False, highlight=False)  # on a terminal each field breaks between words


@memory_app.command("list")
def memory_list(ctx: typer.Context, limit: int = 50, offset: int = 0,
                show_all: Annotated[bool, typer.Option("--all", metavar="", help="Include invalidated records, with the reason.")] = False,
                attempts: Annotated[bool, typer.Option(
                    "--attempts", metavar="", help="List failed attempts (changes tried that did not pass) instead of fixes.")] = False,
                as_json: JsonOpt = False) -> None:
    """List stored fixes, newest first (invalidated ones only with --all); --attempts: failed attempts."""
    from astra_memory.backends.memory_only import open_memory
    from astra_memory.cli.attempts import print_attempts

    try:
        with open_memory(settings_of(ctx), namespace=_namespace(ctx), read_only=True) as memory:
            if attempts:
                tried = sorted(memory.attempts.iter_records(), key=lambda r: r.last_tried, reverse=True)
                tried = [r for r in tried if show_all or r.status != "invalidated"][offset:offset + limit]
            else:
                records = memory.list_records(limit=limit, offset=offset, include_invalidated=show_all)
    except AstraError as exc:
        fail(str(exc))
    _damaged_note(memory.damaged)
    if attempts:
        return print_attempts(tried, as_json=as_json)
    if as_json:
        return print_json([r.model_dump(mode="json") for r in records])
    if not records:
        return console.print("memory is empty")
    print_records(["memory id", "project", "error type", "files", "fix", "confirmed", "times", "status"],
                  [[*_record_row(r), str(r.times_confirmed),
                    r.status if r.status == "active" else f"{r.status}: {r.status_reason}"] for r in records],
                  whole=(0, 5, 6))


@memory_app.command("invalidate")
def memory_invalidate(ctx: typer.Context, memory_id: str,
                      reason: Annotated[str, typer.Option("--reason", help="Why the fix is wrong (kept for audit).")] = "",
                      as_json: JsonOpt = False) -> None:
    """Mark a fix wrong: kept for audit (`memory list --all`), never returned to the agent or replayed."""
    from astra_memory.backends.memory_only import open_memory
    from astra_memory.stores.lifecycle import invalidate

    if not reason.strip():
        fail("--reason is required: say why the fix is wrong (it is kept with the record)")
    try:
        with open_memory(settings_of(ctx), namespace=_namespace(ctx)) as memory:
            record = invalidate(memory, memory_id, reason)
            if record is None:  # a failed attempt: never delivered again, never refuses an edit
                record = memory.attempts.update(memory_id, status="invalidated")
    except AstraError as exc:
        fail(str(exc))
    _known(record, memory_id, memory.damaged)
    if as_json:
        return print_json(record.model_dump(mode="json"))
    console.print(f"invalidated {memory_id}: {reason.strip()}", markup=False, highlight=False)


def _known(record, memory_id: str, damaged: dict[str, str]) -> None:
    """An unknown id is unknown input: a usage exit (2), with where to find the ids. A damaged row
    (stored, but not a valid record) is said to be one, with what is wrong: exit 1."""
    if record is None and memory_id in damaged:
        fail(f"record {memory_id} is damaged and cannot be read: {damaged[memory_id]}. "
              f"`astra-memory memory delete {memory_id}` removes it", EXIT_FAILED)
    if record is None:
        fail(f"no record {memory_id!r}; `astra-memory memory list` shows the ids", EXIT_USAGE)


@memory_app.command("show")
def memory_show(ctx: typer.Context, memory_id: str, as_json: JsonOpt = False) -> None:
    """Show one record in full."""
    from astra_memory.backends.memory_only import open_memory
    from astra_memory.cli.attempts import print_attempts, show_attempt

    try:
        with open_memory(settings_of(ctx), namespace=_namespace(ctx), read_only=True) as memory:
            record = memory.get(memory_id)
            attempt = memory.attempts.get(memory_id) if record is None else None
            tried_first = memory.attempts.linked_to(memory_id) if record is not None else []
    except AstraError as exc:
        fail(str(exc))
    _damaged_note({k: v for k, v in memory.damaged.items() if k != memory_id})  # others, met on the way
    if attempt is not None:
        return show_attempt(attempt, as_json=as_json)
    _known(record, memory_id, memory.damaged)
    if as_json:
        return print_json({**record.model_dump(mode="json"),
                            "tried_first": [a.model_dump(mode="json") for a in tried_first]})
    for key, value in record.model_dump(mode="json", exclude={"confirmations", "not_replayable"}).items():
        console.print(f"[bold]{key}[/bold]: {lit(folded(str(value), first=len(key) + 2))}",
                      highlight=False)  # stored text: never markup; on a terminal, broken between words
    refusal = record.replay_refusal
    console.print(f"[bold]replayable[/bold]: {lit('no, ' + refusal if refusal else 'yes')}", highlight=False)
    print_records(["confirmed at", "kind", "session / thread", "model", "outcome"],
                  [[c.confirmed_at.isoformat()[:19], c.kind, c.session_id if c.session_id == c.thread_id
                    else f"{c.session_id} / {c.thread_id}", c.model, c.outcome] for c in record.confirmations],
                  title=f"confirmations ({record.times_confirmed})", whole=(0, 2))
    if tried_first:
        print_attempts(tried_first, as_json=False, title="tried first, did not pass (failed attempts)")


@memory_app.command("delete")
def memory_delete(ctx: typer.Context, memory_id: str) -> None:
    """Delete one record (its vector too: it will not come back from search)."""
    from astra_memory.backends.memory_only import open_memory

    try:
        with open_memory(settings_of(ctx), namespace=_namespace(ctx)) as memory:
            deleted = memory.delete(memory_id) or memory.attempts.delete(memory_id)
    except AstraError as exc:
        fail(str(exc))
    if not deleted:
        fail(f"no record {memory_id!r}; `astra-memory memory list` shows the ids", EXIT_USAGE)
    console.print(f"deleted {memory_id}", markup=False, highlight=False)


@memory_app.command("export")
def memory_export(ctx: typer.Context, path: Path) -> None:
    """Write every record to a JSON-lines file."""
    from astra_memory.backends.memory_only import open_memory

    count = 0
    if not path.parent.is_dir():
        fail(f"cannot export to {path}: the folder {path.parent} does not exist (create it first)")
    try:
        with open_memory(settings_of(ctx), namespace=_namespace(ctx)) as memory, open(path, "w", encoding="utf-8") as out:
            for record in memory.iter_records():
                out.write(record.model_dump_json() + "\n")
                count += 1
            tried = 0
            for attempt in memory.attempts.iter_records():  # labelled lines: "kind": "attempt"
                out.write(attempt.model_dump_json() + "\n")
                tried += 1
    except AstraError as exc:
        fail(str(exc))
    _damaged_note(memory.damaged)  # not exported: a damaged row would be refused by the import
    console.print(f"exported {count} record(s) and {tried} failed attempt(s) to {path}", markup=False,
                  highlight=False)


@memory_app.command("import")
def memory_import(ctx: typer.Context, path: Path, as_json: JsonOpt = False) -> None:
    """Import records from a JSON-lines file: all lines validated first, nothing half-imported."""
    from astra_memory.backends.memory_only import open_memory
    from astra_memory.stores.transfer import import_file

    if not path.is_file():
        fail(f"{path} is not a file")
    try:
        with open_memory(settings_of(ctx), namespace=_namespace(ctx)) as memory:
            report = import_file(memory, path)
    except AstraError as exc:
        fail(str(exc))
    if as_json:
        return print_json({"imported": report.records, "new": report.records - report.merged_with_existing,
                            "already_there": report.merged_with_existing, "attempts": report.attempts,
                            "attempts_already_there": report.attempts_already_there})
    there, tried = report.merged_with_existing, report.attempts_already_there
    new = f"imported {report.records - there} new record(s)" + (
        f", {there} already there (their confirmations merged)" if there else "")
    attempts = f"{report.attempts - tried} new failed attempt(s)" + (f", {tried} already there" if tried else "")
    console.print(folded(f"{new} and {attempts} from {path}", first=0), markup=False, highlight=False)


@memory_app.command("smoke")
def memory_smoke(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Store a provisional record, find it, read it back from another process, delete it, confirm it is gone."""
    from astra_memory.backends.memory_only import open_memory
    from astra_memory.stores.record import memory_id_for, utc_now, validate_record

    steps: list[dict] = []
    token = uuid.uuid4().hex[:8]
    symptom = f"SmokeCheckError: provisional record {token} for the store/verify/delete check"
    now = utc_now()
    description = f"Provisional smoke-test record {token}; deleted by the same check."
    record = validate_record({  # its id is its content's, as every stored fix's (stores/record.py content_problem)
        "memory_id": memory_id_for(project="astra-smoke", error_type="SmokeCheckError", diff="",
                                   fix_description=description, file_paths=["smoke/check.py"]),
        "symptom": symptom, "error_type": "SmokeCheckError", "file_paths": ["smoke/check.py"],
        "fix_description": description,
        "outcome": "smoke check (not a confirmed fix)", "timestamp": now, "updated_at": now,
        "session_id": f"smoke-{token}", "thread_id": f"smoke-{token}", "project": "astra-smoke", "model": "none",
    })
    try:
        with open_memory(settings_of(ctx), namespace=_namespace(ctx)) as memory:
            memory.put_record(record)
            steps.append({"step": "store", "ok": memory.get(record.memory_id) is not None})
            hits = memory.search_codebase_memory(symptom, top_k=10, min_score=-1.0)
            steps.append({"step": "search", "ok": any(h.record.memory_id == record.memory_id for h in hits)})
            child = subprocess.run([sys.executable, "-m", "astra_memory", "memory", "show", record.memory_id, "--json"],
                                   capture_output=True, text=True, env={**os.environ, **child_env(ctx)}, timeout=300)
            persisted = child.returncode == 0 and json.loads(child.stdout or "{}").get("memory_id") == record.memory_id
            steps.append({"step": "read back in a separate process", "ok": persisted})
            steps.append({"step": "delete", "ok": memory.delete(record.memory_id)})
            hits = memory.search_codebase_memory(symptom, top_k=10, min_score=-1.0)
            gone = memory.get(record.memory_id) is None and all(h.record.memory_id != record.memory_id for h in hits)
            steps.append({"step": "gone from get and search", "ok": gone})
    except AstraError as exc:
        fail(str(exc), EXIT_FAILED)
    ok = all(s["ok"] for s in steps)
    if as_json:
        print_json({"ok": ok, "memory_id": record.memory_id, "steps": steps})
    else:
        for s in steps:
            console.print(("[green]ok[/green]  " if s["ok"] else "[red]FAIL[/red] ") + s["step"])
        console.print("smoke check passed" if ok else "smoke check FAILED")
    raise typer.Exit(EXIT_OK if ok else EXIT_FAILED)


@memory_app.command("migrate")
def memory_migrate(
    ctx: typer.Context,
    source: Annotated[Optional[str], typer.Option("--from", help="SQLite memory file, postgresql:// URL or vectorai://HOST:PORT to copy from.")] = None,
    destination: Annotated[Optional[str], typer.Option("--to", help="SQLite memory file, postgresql:// URL or vectorai://HOST:PORT to copy into.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Without --from/--to: upgrade this memory in place (one record per fix, duplicates merged with
    their confirmations). With both: copy every record with its id and stored vector (not
    re-embedded) between backends, counts checked, then upgrade the destination."""
    from astra_memory.backends.memory_only import open_memory
    from astra_memory.backends.migrate import MigrationError, migrate
    from astra_memory.backends.open import open_memory_store
    from astra_memory.stores.embeddings import make_embeddings
    from astra_memory.stores.memory import FixMemory
    from astra_memory.stores.namespaces import namespace_for
    from astra_memory.stores.upgrade import upgrade_memory

    settings = settings_of(ctx)
    if (source is None) != (destination is None):
        fail("give both --from and --to (copy between backends), or neither (upgrade this memory in place)")
    report = None
    try:
        if source is None:
            with open_memory(settings, namespace=_namespace(ctx)) as memory:  # --namespace: only that one
                upgrade = upgrade_memory(memory)
                damaged = dict(memory.damaged)  # read around like every command's reads, and said
        else:
            embeddings = make_embeddings(settings.embeddings, settings.embedding_model_path)
            where = namespace_for(Context().namespace if _namespace(ctx) is None else _namespace(ctx))
            report = migrate(source, destination, embeddings, namespace=where)
            with open_memory_store(destination, embeddings, setting="--to") as opened:
                upgraded = FixMemory(opened.store, namespace=where)
                upgrade = upgrade_memory(upgraded)
                damaged = dict(upgraded.damaged)
    except MigrationError as exc:
        fail(str(exc), EXIT_FAILED)
    except AstraError as exc:
        fail(str(exc))
    _damaged_note(damaged)  # stderr: stdout (--json too) stays the result
    if as_json:
        return print_json({**(report.to_dict() if report else {}), "upgrade": upgrade.to_dict()})
    if report is not None:
        console.print(f"migrated {report.records} record(s) from {report.source} to {report.destination}: "
                      f"{report.vectors_copied} vector(s) copied, {report.re_embedded} re-embedded; "
                      f"destination {report.destination_before} -> {report.destination_after} record(s); "
                      f"{report.attempts} failed attempt(s) copied",
                      markup=False, highlight=False)
    console.print(f"one record per fix: {upgrade.records_before} -> {upgrade.records_after} record(s), "
                  f"{upgrade.merged} duplicate(s) merged into their fix's confirmations; {upgrade.repaired} damaged "
                  f"diff(s) repaired, {upgrade.marked} that could not be invalidated with the reason; "
                  f"{upgrade.repointed} link(s) to an old id pointed at the new one", markup=False,
                  highlight=False)

"""How the `memory` commands print failed attempts: always labelled, never mistaken for a fix.

The commands themselves are in cli/memory.py (`list --attempts`, `show`, `invalidate`, `delete`,
`export`/`import`); this module renders the records (stores/attempt_record.py).
"""

from __future__ import annotations

from astra_memory.cli.common import console, lit, print_json, print_records
from astra_memory.stores.attempt_record import AttemptRecord

LABEL = "FAILED ATTEMPT (did not pass; never replayed, never a fix)"


def attempt_row(record: AttemptRecord) -> list[str]:
    status = record.status if record.linked_fix is None else f"linked to fix {record.linked_fix}"
    return [record.attempt_id, record.project, ", ".join(record.file_states), record.end, record.outcome,
            str(record.times_tried), record.last_tried.isoformat()[:19],
            status + (" (imported)" if record.imported else "")]


TABLE_WIDTH = 200
ATTEMPT_HEADERS = ["attempt id", "project", "files", "ended", "tests said", "tried", "last tried", "status"]


def print_attempts(records: list[AttemptRecord], *, as_json: bool, title: str | None = None) -> None:
    if as_json:
        return print_json([r.model_dump(mode="json") for r in records])
    if not records:
        return console.print("no failed attempts", highlight=False)
    # Ids, names and the linked fix's id are long: a table only where they fit whole, else blocks.
    print_records(ATTEMPT_HEADERS, [attempt_row(r) for r in records], title=title or LABEL, whole=(0, 5, 6),
                  wide=TABLE_WIDTH)


def show_attempt(record: AttemptRecord, *, as_json: bool) -> None:
    if as_json:
        return print_json(record.model_dump(mode="json"))
    console.print(f"[bold red]{LABEL}[/bold red]", highlight=False)
    for key, value in record.model_dump(mode="json", exclude={"sessions"}).items():
        console.print(f"[bold]{key}[/bold]: {lit(value)}", highlight=False)  # stored text: never markup
    print_records(["tried at", "session", "model", "tests said"],
                  [[s.tried_at.isoformat()[:19], s.session_id, s.model, s.outcome] for s in record.sessions],
                  title=f"sessions ({record.times_tried})", whole=(0, 1))

"""What the CLI's commands share: the consoles, exit codes, settings from the command line, errors, JSON."""

from __future__ import annotations

import json
import sys
import textwrap
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from astra_memory.cli.terminal import SafeConsole, visible
from astra_memory.settings import Settings


@dataclass(frozen=True)
class Given:
    """What the command line gave before the command: ``--database-url`` (the app's callback) and
    ``memory --namespace`` (the memory app's). The callbacks put it in typer's context object
    (``ctx.obj``), which the command's context inherits; None: not given (the environment decides)."""

    database_url: str | None = None
    namespace: str | None = None


def given_of(ctx: typer.Context) -> Given:
    """What the command line gave (nothing, for an app invoked without the main callback)."""
    found = ctx.find_object(Given)
    return found if found is not None else Given()


def child_env(ctx: typer.Context) -> dict[str, str]:
    """What a subprocess of ours needs to see the same data (``memory smoke``'s read-back)."""
    given = given_of(ctx)
    env = {"ASTRA_DATABASE_URL": given.database_url} if given.database_url else {}
    return env | ({"ASTRA_NAMESPACE": given.namespace} if given.namespace is not None else {})


def settings_of(ctx: typer.Context) -> Settings:
    """Settings from the environment, with what the command line gave (--database-url)."""
    url = given_of(ctx).database_url
    return Settings(database_url=url) if url else Settings()


console = SafeConsole(soft_wrap=True)  # untrusted text is never printed raw (cli/terminal.py)
err = SafeConsole(stderr=True, soft_wrap=True)  # paths and reasons are never folded mid-word


def fold(text: str, *, first: int, indent: int, width: int) -> str:
    """``text`` broken between words to ``width`` columns: its first line starts after ``first``
    columns already used, each line after it is indented by ``indent``; a word longer than a line
    (a long path) is kept whole, never split; each of its own lines is folded apart."""
    lines: list[str] = []  # the first without its ``first`` columns, the others with their indent
    for n, part in enumerate(text.split("\n")):
        part = part[indent:] if n and part.startswith(" " * indent) else part
        lead = first if not lines else indent
        pieces = textwrap.wrap(part, width=max(20 + indent, width), initial_indent="x" * lead,
                               subsequent_indent=" " * indent, break_long_words=False,
                               break_on_hyphens=False) or ["x" * lead]
        lines.append(pieces[0][lead:] if not lines else " " * indent + pieces[0][lead:])
        for piece in pieces[1:]:  # a word too long for a line at the indent starts further left, whole
            body = piece[indent:]
            lines.append(" " * (indent if len(piece) <= width else max(0, width - len(body))) + body)
    return "\n".join(lines)


def folded(text: str, *, first: int = 2, indent: int = 2, out: Console | None = None) -> str:
    """``text`` as a terminal shows it best: on a terminal, ``fold``-ed at its width; into a file or
    a pipe, or text of many lines (a diff, test output: shown as it is), unchanged (each line whole,
    for grep). The caller prints the first ``first`` columns."""
    out = out or console
    if not out.is_terminal or "\n" in text:
        return text
    return fold(text, first=first, indent=indent, width=out.width)


def folded_lines(text: str, *, indent: int, out: Console | None = None) -> str:
    """Each line of ``text`` ``folded`` on its own, from column 0 (its own leading spaces kept), the
    lines it breaks into indented by ``indent``."""
    return "\n".join(folded(line, first=0, indent=indent, out=out) for line in text.split("\n"))


EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
JsonOpt = Annotated[bool, typer.Option("--json", metavar="", help="Print one JSON object for scripts.")]


def fail(message: str, code: int = EXIT_USAGE) -> None:
    """End the command: ``error: <message>`` on stderr, then exit ``code`` (default 2, a usage error).
    Every command's error goes through here, the bench's (bench/cli.py) too."""
    from astra_memory.redact import scrub  # here: detect-secrets is not loaded by the CLI's start

    err.print("[red]error:[/red] ", end="")
    err.print(scrub(message), markup=False, highlight=False)  # may hold [brackets]: not markup; a URL's key: scrubbed
    raise typer.Exit(code)


def lit(value: Any) -> str:
    """Project text, stored text, paths, diffs or test output inside a markup string: printed as it
    is (``[bold]``, ``[/]``, ``t[value % 10]``, backslashes), never read as rich markup; control
    characters (an ESC that would drive the terminal, a carriage return that would overwrite the
    line, a bidi override) shown as ``\\x1b`` escapes, never sent raw (cli/terminal.py)."""
    return escape(visible(value))


# Below this width a listing is printed one record per block (``key: value`` lines), not as a table
# squeezed until its cells end in "...": ids, names and numbers are always printed whole.
WIDE = 100


def print_records(headers: list[str], rows: list[list[str]], *, title: str | None = None,
                  whole: tuple[int, ...] = (0,), target: Console | None = None, wide: int = WIDE) -> None:
    """Rows of plain text (never markup) as a table on a wide console, else one block per row: the
    first column on its own line, then ``header: value`` lines. Columns in ``whole`` (ids, names,
    numbers) are never wrapped; other cells wrap (fold), none is cut."""
    out = target or console
    if out.width >= wide:
        table = Table(title=title)
        for index, header in enumerate(headers):
            table.add_column(header, no_wrap=index in whole, overflow="fold")
        for row in rows:
            table.add_row(*(lit(cell) for cell in row))
        out.print(table)
        return
    print_blocks(headers, rows, title=title, out=out)


def print_blocks(headers: list[str], rows: list[list[str]], *, title: str | None, out: Console) -> None:
    """One block per row: the first cell on its own line, then a ``header: value`` line for each cell
    that has a value (an empty one would print a bare ``next:``)."""
    if title:
        out.print(f"[bold]{lit(title)}[/bold]", highlight=False)
    for row in rows:
        out.print(f"[bold]{lit(row[0])}[/bold]", highlight=False)
        for header, cell in zip(headers[1:], row[1:], strict=True):
            if cell:
                out.print(f"  {lit(header)}: {lit(folded(cell, first=len(header) + 4, indent=4, out=out))}",
                          highlight=False)


def print_table(table: Table, *, whole: tuple[int, ...] = (0,), target: Console | None = None) -> None:
    """A built table, printed only if it fits whole: every cell of a ``whole`` column (names, ids)
    on one line, every word of the others unbroken; else one block per row (first cell on its own
    line, then ``header: value`` lines). Nothing is ever cut with an ellipsis."""
    out = target or console
    headers = [str(column.header) for column in table.columns]
    rows = [[str(cell) for cell in cells] for cells in zip(*(column.cells for column in table.columns), strict=True)]

    def need(index: int, texts: list[str]) -> int:
        pieces = [line for text in texts for line in text.splitlines()] if index in whole else \
            [word for text in texts for word in text.split()]
        return max(map(len, pieces), default=1)

    widths = [need(i, [headers[i]] + [row[i] for row in rows]) for i in range(len(headers))]
    if sum(widths) + 3 * len(widths) + 1 <= out.width:  # a cell's padding and border: 3 columns each
        for index, column in enumerate(table.columns):
            column.overflow, column.min_width, column.no_wrap = "fold", widths[index], index in whole
        out.print(table)
        return
    print_blocks(headers, rows, title=str(table.title) if table.title else None, out=out)


def print_json(data: Any) -> None:
    """``--json`` output: one indented JSON document on stdout (what JSON cannot hold, as ``str``)."""
    sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")

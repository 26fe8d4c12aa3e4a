"""Issue 36 item 5: no table command cuts a name or a number with "…" at 80 columns (docs/cli.md)."""

from __future__ import annotations

import io
import json

from rich.console import Console
from rich.table import Table

from astra_memory.cli.common import print_table
from tests.conftest import cli_env, run_cli


def test_prices_at_80_columns_prints_every_model_name_whole():
    listed = json.loads(run_cli("prices", "--all", "--json").stdout)
    shown = run_cli("prices", "--all", env=cli_env(COLUMNS="80"))
    assert shown.returncode == 0, shown.stderr
    assert "…" not in shown.stdout
    lines = set(shown.stdout.splitlines())
    names = list(listed["models"])
    assert len(names) > 20
    assert all(name in lines for name in names), [n for n in names if n not in lines][:5]
    one = run_cli("prices", names[0], env=cli_env(COLUMNS="80"))
    assert one.returncode == 0 and "…" not in one.stdout


def _render(table: Table, width: int) -> str:
    out = io.StringIO()
    print_table(table, target=Console(file=out, width=width))
    return out.getvalue()


def _retrieval_like() -> Table:
    sets = {"dev": 60, "dev-extended": 240, "blind": 40, "blind-2": 40, "blind-3": 54, "blind-4": 61}
    table = Table("system", *(f"{name} ({n} q)" for name, n in sets.items()), title="Retrieval, MiniLM")
    for system in ("product (hybrid, outcome-aware)", "fix-only baseline", "BM25"):
        table.add_row(system, *("0.617 / 0.800 / 0.702" for _ in sets))
    return table


def test_a_table_that_cannot_fit_is_printed_as_blocks_with_nothing_cut():
    text = _render(_retrieval_like(), 80)
    assert "…" not in text
    assert "product (hybrid, outcome-aware)" in text.splitlines()
    assert "  dev-extended (240 q): 0.617 / 0.800 / 0.702" in text.splitlines()
    assert all(len(line) <= 80 for line in text.splitlines())


def test_a_table_that_fits_stays_a_table_and_keeps_its_names_on_one_line():
    text = _render(_retrieval_like(), 220)
    assert "…" not in text and "┃" in text
    assert any("product (hybrid, outcome-aware)" in line for line in text.splitlines())
    narrow = Table("model", "input", title="t")
    narrow.add_row("gpt-4o-mini-2024-07-18", "0.15")
    assert "gpt-4o-mini-2024-07-18" in _render(narrow, 40)


def test_a_models_prices_break_between_words_at_an_80_column_terminal():
    """The new-user run on more-itertools: `prices gpt-4.1-mini` printed its source, uplift and
    shutdown lines whole and the terminal cut them mid-word (`model_prices_and_c|ontext`, `open|ai.com`)."""
    import re

    shown = run_cli("prices", "gpt-4.1-mini", env=cli_env(COLUMNS="80", TTY_COMPATIBLE="1"))
    assert shown.returncode == 0, shown.stderr
    lines = re.sub(r"\x1b\[[0-9;]*m", "", shown.stdout).splitlines()
    assert [line for line in lines if len(line) > 80 and len(line.split()) > 1] == []
    assert "litellm/model_prices_and_context_window_backup.json" in " ".join(" ".join(lines).split())


def test_a_listing_at_80_columns_prints_no_bare_field_for_an_empty_value():
    """The new-user run on humanize: `threads` at 80 columns printed a bare `  next:` under every finished
    session, and `cost` a bare `  model:` under its total."""
    from astra_memory.cli.common import print_records

    out = io.StringIO()
    print_records(["thread", "status", "next", "project"], [["hum-right", "fixed", "", "hum"]],
                  target=Console(file=out, width=80))
    assert out.getvalue().splitlines() == ["hum-right", "  status: fixed", "  project: hum"]

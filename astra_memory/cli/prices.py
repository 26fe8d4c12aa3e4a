"""`astra-memory prices [MODEL]`: what the cost guard charges, and where the prices came from.

Registered in cli/app.py with ``app.command()(prices)``. Reads only the packaged price table
(astra_memory/costs/prices.json) and the live settings of the environment; no model, no database.
"""

from __future__ import annotations

import warnings
from typing import Annotated, Any, Optional

import typer
from rich.table import Table

from astra_memory.cli.common import JsonOpt, console, err, fail, folded, print_json, print_table
from astra_memory.errors import AstraError

TIER_ROWS = (("auto/default", None), ("flex", "flex"), ("fast (priority)", "fast"))


def _money(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def _price_dict(price) -> dict[str, Any]:
    out = {"input": price.input_per_mtok, "output": price.output_per_mtok}
    if price.long_context_above is not None:
        out["long_context"] = {"above_input_tokens": price.long_context_above, "input": price.long_input_per_mtok,
                               "output": price.long_output_per_mtok}
    return out


def _guard_prices(name: str, entry) -> dict[str, Any]:
    """Per --service-tier: the price the guard charges (USD per million tokens), or why it refuses."""
    from astra_memory.costs.prices import table_price

    out: dict[str, Any] = {}
    for label, tier in TIER_ROWS:
        try:
            out[label] = _price_dict(table_price(name, entry, tier))
        except AstraError:
            out[label] = {"refused": f"no {tier} price in the table: refused unless --price-in and --price-out "
                                     "are given"}
        if tier is not None and entry.tier(tier) is None and "refused" not in out[label]:
            out[label]["note"] = f"no {tier} price in the table: charged the standard price"
    return out


def _table_info(table, today) -> dict[str, Any]:
    return {"generated_on": table.generated_on.isoformat(), "age_days": table.age_days(today),
            "stale": table.stale(today), "source": dict(table.source), "conflicts": list(table.conflicts)}


def _model_info(entry, today) -> dict[str, Any]:
    return {
        "model": entry.name,
        "guard": _guard_prices(entry.name, entry),
        "cached_input": entry.standard.rates.cached_input,
        "batch": None if entry.tier("batch") is None else {
            "input": entry.tier("batch").rates.input, "output": entry.tier("batch").rates.output},
        "shutdown": None if entry.shutdown is None else entry.shutdown.isoformat(),
        "shut_down": entry.shut_down(today),
        "shutdown_source": entry.shutdown_source,
        "successor": entry.successor,
        "uplift": dict(entry.uplift),
        "source": entry.source,
        "notes": {t: p.note for t, p in entry.tiers.items() if p.note},
    }


def _cell(price: dict[str, Any]) -> str:
    if "refused" in price:
        return "refused"
    text = f"{_money(price['input'])} / {_money(price['output'])}"
    if "long_context" in price:
        lc = price["long_context"]
        text += f"  (>{lc['above_input_tokens'] // 1000}K: {_money(lc['input'])} / {_money(lc['output'])})"
    return text


def _effective(model: str) -> dict[str, Any]:
    """What a run started from this environment would be charged (its tier, explicit prices, endpoint)."""
    from astra_memory.context import Context
    from astra_memory.costs.prices import StalePriceTableWarning, price_for

    context = Context()
    settings = {"service_tier": context.service_tier, "price_in_per_mtok": context.price_in_per_mtok,
                "price_out_per_mtok": context.price_out_per_mtok, "base_url": context.base_url}
    try:
        with warnings.catch_warnings():  # the command says itself that the table is old
            warnings.simplefilter("ignore", StalePriceTableWarning)
            price = price_for(model, price_in=context.price_in_per_mtok, price_out=context.price_out_per_mtok,
                              service_tier=context.service_tier, base_url=context.base_url)
        return {"settings": settings, "price": _price_dict(price)}
    except AstraError as exc:
        return {"settings": settings, "refused": str(exc)}


def prices(model: Annotated[Optional[str], typer.Argument(
               help="A model name as in --model openai:<name>, without 'openai:'. Omit it to list the table.")] = None,
           show_all: Annotated[bool, typer.Option("--all", metavar="", help="List shut-down models too.")] = False,
           as_json: JsonOpt = False) -> None:
    """Show the prices the cost guard charges (USD per million tokens) and where they came from.

    The guard reserves each request at the highest price it may be billed: cached input at the full
    input price, and above a model's long-context threshold the whole request at the long-context
    prices. It refuses a model the table has no price for (unless --price-in/--price-out are given),
    and a model past its shutdown date; it warns when the table is older than 90 days.
    """
    from astra_memory.costs.price_table import price_table
    from astra_memory.costs.prices import current_date, stale_message

    if model is not None and model.startswith("openai:"):
        model = model.removeprefix("openai:")
    try:
        table = price_table()
        today = current_date()
        entry = table.models.get(model) if model is not None else None
        if model is not None and entry is None:
            from astra_memory.costs.prices import price_for
            price_for(model, today=today, table=table)  # raises the guard's own refusal, with close names
        effective = _effective(model) if entry is not None else None
    except AstraError as exc:
        fail(str(exc))
    info = _table_info(table, today)
    if as_json:
        if entry is not None:
            return print_json({"table": info, **_model_info(entry, today), "this_environment": effective})
        return print_json({"table": info, "models": {
            name: _model_info(m, today) for name, m in table.models.items() if show_all or not m.shut_down(today)}})

    _say(f"Prices: {table.describe_source()} ({info['age_days']} days ago)")
    if table.stale(today):
        err.print(f"[yellow]warning:[/yellow] {stale_message(table, today)}", highlight=False)
    if entry is None:
        _print_list(table, today, show_all)
    else:
        _print_model(_model_info(entry, today), effective)


def _say(line: str) -> None:
    """One line of prose; on a terminal broken between words, the lines after the first two spaces in
    (at 80 columns the terminal cut `model_prices_and_c|ontext`, `open|ai.com`)."""
    console.print(folded(line, first=0, indent=2), highlight=False)


def _print_list(table, today, show_all: bool) -> None:
    rows = Table("model", "standard in / out", "cached in", "flex", "fast (priority)", "shutdown",
                 title="USD per million tokens; (>272K: ...) the whole request above that many input tokens")
    hidden = 0
    for name, entry in table.models.items():
        if entry.shut_down(today) and not show_all:
            hidden += 1
            continue
        guard = _guard_prices(name, entry)
        flex = "standard" if entry.tier("flex") is None else _cell(guard["flex"])
        shutdown = "" if entry.shutdown is None else (
            f"shut down {entry.shutdown}" if entry.shut_down(today) else str(entry.shutdown))
        rows.add_row(name, _cell(guard["auto/default"]), _money(entry.standard.rates.cached_input), flex,
                     _cell(guard["fast (priority)"]), shutdown)
    print_table(rows)
    if hidden:
        console.print(f"{hidden} shut-down model(s) not shown (--all shows them; the guard refuses them)")


def _print_model(info: dict[str, Any], effective: dict[str, Any] | None) -> None:
    console.print(f"[bold]{info['model']}[/bold] (USD per million tokens)")
    rows = Table("--service-tier", "input", "output", "long context (whole request)")
    for label, price in info["guard"].items():
        if "refused" in price:
            rows.add_row(label, "refused", "", price["refused"])
            continue
        lc = price.get("long_context")
        rows.add_row(label, _money(price["input"]), _money(price["output"]),
                     "; ".join(filter(None, ["" if lc is None else f"above {lc['above_input_tokens']:,} input tokens: "
                                             f"{_money(lc['input'])} / {_money(lc['output'])}", price.get("note")])))
    print_table(rows)
    if info["cached_input"] is not None:
        _say(f"cached input {_money(info['cached_input'])} (the guard charges it at the full input price)")
    if info["batch"]:
        console.print(f"Batch API {_money(info['batch']['input'])} / {_money(info['batch']['output'])} "
                      "(not a --service-tier)")
    for tier, note in info["notes"].items():
        _say(f"{tier}: {note}")
    if info["uplift"]:
        _say("endpoint uplift: " + ", ".join(f"{r} x{f:g}" for r, f in info["uplift"].items())
             + " (applied when the base URL is eu./us./gov.api.openai.com)")
    if info["shutdown"]:
        state = "[red]shut down: the guard refuses it[/red]" if info["shut_down"] else "the guard refuses it from then"
        _say(f"shutdown {info['shutdown']}: {state} (source: {info['shutdown_source']})")
        if info["successor"]:
            console.print(f"successor: {info['successor']}")
    else:
        console.print("shutdown: none announced in the table")
    _say(f"source: {info['source']}")
    if effective is not None:
        given = ", ".join(f"{k}={v}" for k, v in effective["settings"].items() if v is not None) or "none"
        result = (f"refused: {effective['refused']}" if "refused" in effective else _cell(effective["price"]))
        _say(f"this environment's live settings ({given}): {result}")

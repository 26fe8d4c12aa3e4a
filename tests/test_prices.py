"""The price table (issue #25): prices as data with a date and a source, the facts of the issue, and
the guard's promise that it never reserves less than a request may be billed, over the whole table."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import warnings
import zipfile
from datetime import date, timedelta
from importlib import resources

import pytest
import typer
from typer.testing import CliRunner

from astra_memory.cli.prices import prices
from astra_memory.context import Context
from astra_memory.costs import prices as prices_module
from astra_memory.costs.price_table import (
    MAX_AGE_DAYS,
    build_table,
    dump_table,
    parse_table,
    per_mtok,
    price_table,
)
from astra_memory.costs.prices import (
    SERVICE_TIERS,
    Price,
    StalePriceTableWarning,
    canonical_tier,
    input_token_bound,
    price_for,
)
from astra_memory.errors import ConfigurationError
from astra_memory.models.live import preflight
from astra_memory.models.wire_settings import chat_openai_settings, check_wire_settings
from tests.conftest import ROOT

REAL_CURRENT_DATE = prices_module.current_date

TODAY = date(2026, 12, 2)  # the day the table was generated (issue #25)
RAW = json.loads(resources.files("astra_memory.costs").joinpath("prices.json").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def pinned_today(monkeypatch):
    """The guard's "today" for code that does not take ``today=`` (preflight): the table's own date."""
    monkeypatch.setattr(prices_module, "current_date", lambda: TODAY)


# -- the facts of issue #25, one test each ---------------------------------------------------------

def test_gpt_4o_2024_05_13_has_its_own_price_not_gpt_4o():
    assert price_for("gpt-4o-2024-05-13", today=TODAY) == Price(5.00, 15.00)
    assert price_for("gpt-4o-2024-05-13", service_tier="fast", today=TODAY) == Price(8.75, 26.25)
    assert price_for("gpt-4o-2024-05-13", service_tier="priority", today=TODAY) == Price(8.75, 26.25)
    assert price_for("gpt-4o", today=TODAY) == Price(2.50, 10.00)  # the alias is another model
    # What the old table did (a dated snapshot priced as its base model) is gone: an unknown snapshot is
    # refused instead of guessed.
    with pytest.raises(ConfigurationError, match="no price is known for model 'gpt-4o-2099-01-01'"):
        price_for("gpt-4o-2099-01-01", today=TODAY)
    # A million input tokens are reserved at $5, not $2.50.
    assert price_for("gpt-4o-2024-05-13", today=TODAY).cost(1_000_000, 0) == pytest.approx(5.0)


def test_gpt_6_astra_is_priced_and_a_request_above_272k_is_reserved_at_the_long_context_price(monkeypatch):
    price = price_for("gpt-6-astra", today=TODAY)
    assert (price.input_per_mtok, price.output_per_mtok) == (10.0, 50.0)
    assert (price.long_context_above, price.long_input_per_mtok, price.long_output_per_mtok) == (272_000, 20.0, 75.0)
    assert price_table().models["gpt-6-astra"].standard.rates.cached_input == 1.0
    assert price.cost(272_000, 1_000) == pytest.approx((272_000 * 10 + 1_000 * 50) / 1e6)  # at the threshold
    # Above 272K input tokens the whole request is billed 2x input and 1.5x output.
    billed = (300_000 * 20.0 + 10_000 * 75.0) / 1e6
    assert price.cost(300_000, 10_000) == pytest.approx(billed) == pytest.approx(6.75)
    # The guard's own path: the byte bound of a ~300 KB request is above the threshold, so the
    # reservation is at the long-context price and covers any real token count up to the bound.
    request_text = json.dumps({"messages": [{"role": "user", "content": "x" * 300_000}]})
    bound = input_token_bound(request_text, 1)
    assert bound > 272_000
    reserved = price.cost(bound, 4096)
    for real_in in (1, 100_000, 272_000, 272_001, 300_000, bound):
        real_price = (20.0, 75.0) if real_in > 272_000 else (10.0, 50.0)
        assert reserved >= (real_in * real_price[0] + 4096 * real_price[1]) / 1e6
    # Batch and Flex half, long context included.
    flex = price_for("gpt-6-astra", service_tier="flex", today=TODAY)
    assert (flex.input_per_mtok, flex.output_per_mtok, flex.long_input_per_mtok, flex.long_output_per_mtok) == (
        5.0, 25.0, 10.0, 37.5)
    batch = price_table().models["gpt-6-astra"].tier("batch")
    assert (batch.rates.input, batch.rates.output, batch.long_context.input, batch.long_context.output) == (
        5.0, 25.0, 10.0, 37.5)
    # Selectable: a live run on it passes the preflight.
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-preflight-000000000000")
    assert preflight("openai:gpt-6-astra", Context(approve_live_cost=True)) == price


@pytest.mark.parametrize(("model", "shutdown"), [
    ("gpt-5", date(2026, 12, 11)), ("gpt-5-mini", date(2026, 12, 11)), ("gpt-5-nano", date(2026, 12, 11)),
    ("o3", date(2026, 12, 11)), ("gpt-4o-2024-08-06", date(2027, 1, 14)), ("gpt-4o-mini-2024-07-18", date(2027, 1, 14)),
    ("gpt-4.1-2025-04-14", date(2027, 1, 14)), ("gpt-4.1-mini-2025-04-14", date(2027, 1, 14)),
    ("gpt-4o-2024-05-13", date(2027, 1, 14)),
])
def test_a_model_past_its_shutdown_date_is_refused_with_the_date(model, shutdown):
    assert price_for(model, today=shutdown - timedelta(days=1))  # still up the day before
    for when in (shutdown, shutdown + timedelta(days=400)):
        with pytest.raises(ConfigurationError, match=f"'{model}' was shut down on {shutdown.isoformat()}"):
            price_for(model, today=when)
    with pytest.raises(ConfigurationError, match="shut down"):  # explicit prices do not bring it back
        price_for(model, price_in=1, price_out=1, today=shutdown)
    assert "issue #25" in price_table().models[model].shutdown_source


def test_today_the_gpt5_family_still_runs_and_from_december_11_preflight_refuses_it(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-preflight-000000000000")
    live = Context(approve_live_cost=True)
    assert preflight("openai:gpt-5-mini", live) == Price(0.25, 2.00)
    monkeypatch.setattr(prices_module, "current_date", lambda: date(2026, 12, 11))
    with pytest.raises(ConfigurationError, match=r"gpt-5-mini' was shut down on 2026-12-11.*successor is 'gpt-5.6"):
        preflight("openai:gpt-5-mini", live)


def test_fast_is_the_tiers_name_and_priority_its_alias(monkeypatch):
    assert "fast" in SERVICE_TIERS and "priority" in SERVICE_TIERS
    assert canonical_tier("priority") == "fast" and canonical_tier("flex") == "flex" and canonical_tier(None) is None
    fast = price_for("gpt-5.4", service_tier="fast", today=TODAY)
    assert fast == price_for("gpt-5.4", service_tier="priority", today=TODAY)
    assert (fast.input_per_mtok, fast.output_per_mtok) == (5.0, 30.0)
    # LiteLLM has no long-context fast price for gpt-5.4: the standard multipliers (2x, 1.5x) are applied.
    assert (fast.long_input_per_mtok, fast.long_output_per_mtok) == (10.0, 45.0)
    assert price_for("gpt-6-astra", service_tier="fast", today=TODAY).long_input_per_mtok == 40.0
    with pytest.raises(ConfigurationError, match="no fast-tier price.*gpt-5-nano"):
        price_for("gpt-5-nano", service_tier="fast", today=TODAY)
    with pytest.raises(ConfigurationError, match="must be one of auto, default, flex, fast, priority"):
        price_for("gpt-5.4", service_tier="ultrafast", today=TODAY)
    # The wire check and the preflight take it (the openai API takes both names).
    context = Context(approve_live_cost=True, service_tier="fast")
    check_wire_settings(context)
    assert chat_openai_settings(context)["service_tier"] == "fast"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-preflight-000000000000")
    assert preflight("openai:gpt-5.4", context) == fast


def test_a_table_older_than_90_days_warns_and_is_still_used():
    table = price_table()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        price_for("gpt-5.4", today=table.generated_on + timedelta(days=MAX_AGE_DAYS))  # 90 days: no warning
        price_for("gpt-5.4", price_in=1, price_out=2, today=table.generated_on + timedelta(days=400))  # not used
    with pytest.warns(StalePriceTableWarning, match=r"91 days old.*litellm 1\.\d+.*scripts/update_prices.py"):
        assert price_for("gpt-5.4", today=table.generated_on + timedelta(days=MAX_AGE_DAYS + 1))


# -- the promise over the whole table --------------------------------------------------------------

def _billed(entry: dict, tier: str | None, region: str | None, real_in: int, cached: int, real_out: int) -> float:
    """What OpenAI bills, from the table's JSON (independently of the guard's code): the tier's prices
    (flex only where it has them, else standard), the long-context prices for the whole request above
    the threshold, cached input at the cached price, the endpoint's uplift."""
    prices = entry
    if tier == "flex" and "flex" in entry.get("tiers", {}):
        prices = entry["tiers"]["flex"]
    elif tier in ("fast", "priority"):
        prices = entry["tiers"]["fast"]
    threshold = (entry.get("long_context") or {}).get("above_input_tokens")
    if threshold is not None and real_in > threshold:
        prices = prices["long_context"]
    cached_price = prices.get("cached_input", prices["input"])
    uplift = (entry.get("uplift") or {}).get(region, 1.0)
    return uplift * ((real_in - cached) * prices["input"] + cached * cached_price + real_out * prices["output"]) / 1e6


URLS = {None: None, "https://eu.api.openai.com/v1": "eu", "https://us.api.openai.com/v1": "us",
        "https://gov.api.openai.com/v1": "fedramp", "http://127.0.0.1:8000/v1": None}


def test_the_reservation_is_never_below_the_bill_for_any_model_tier_and_size():
    """A deterministic sweep (no hypothesis in the environment): every model of the table x every
    --service-tier x endpoint x request bound (around each threshold too) x every real size up to it."""
    checked = refused = 0
    long_thresholds = {e["long_context"]["above_input_tokens"] for e in RAW["models"].values() if "long_context" in e}
    assert long_thresholds == {272_000}
    bounds = sorted({0, 1, 999, 271_999, 272_000, 272_001, 400_000, 1_050_000})
    caps = (1, 4096, 128_000)
    for name, entry in RAW["models"].items():
        for tier in (None, *SERVICE_TIERS):
            for url, region in URLS.items():
                try:
                    price = price_for(name, service_tier=tier, base_url=url, today=date(2000, 1, 1))
                except ConfigurationError:
                    assert canonical_tier(tier) == "fast" and "fast" not in entry.get("tiers", {})
                    refused += 1
                    continue
                for bound in bounds:
                    for cap in caps:
                        reserved = price.cost(bound, cap)
                        for real_in in {0, bound // 2, bound - 1, bound, 272_000, 272_001}:
                            if not 0 <= real_in <= bound:  # the bound is an upper bound of the real tokens
                                continue
                            for cached in {0, real_in // 2, real_in}:
                                for real_out in (0, cap // 2, cap):
                                    billed = _billed(entry, tier, region, real_in, cached, real_out)
                                    assert reserved >= billed * (1 - 1e-12), (name, tier, url, bound, cap, real_in)
                                    checked += 1
    assert checked > 500_000 and refused > 0


def test_explicit_prices_keep_the_models_long_context_multipliers():
    assert price_for("gpt-6-astra", price_in=12, price_out=60, today=TODAY) == Price(12, 60, 272_000, 24, 90)
    assert price_for("gpt-6-astra", price_out=60, today=TODAY) == Price(10, 60, 272_000, 20, 90)
    assert price_for("my-local-model", price_in=0, price_out=0, today=TODAY) == Price(0, 0)
    assert price_for("gpt-5-nano", price_in=0.1, price_out=0.8, service_tier="fast", today=TODAY) == Price(0.1, 0.8)


def test_regional_endpoints_add_the_uplift_and_other_servers_do_not():
    base = price_for("gpt-6-astra", today=TODAY)
    eu = price_for("gpt-6-astra", base_url="https://eu.api.openai.com/v1", today=TODAY)
    assert eu.input_per_mtok == pytest.approx(11.0) and eu.long_output_per_mtok == pytest.approx(82.5)
    assert price_for("gpt-6-astra", base_url="http://localhost:11434/v1", today=TODAY) == base
    assert price_for("gpt-6-astra", price_in=10, price_out=50, base_url="https://eu.api.openai.com/v1",
                     today=TODAY) == base  # an explicit price is what you pay


# -- the table: data with a date and a source ------------------------------------------------------

def test_the_table_records_its_source_date_and_every_models_source():
    table = price_table()
    assert table.generated_on == TODAY
    source = RAW["source"]
    assert source["package"] == "litellm" and source["version"] and len(source["sha256"]) == 64
    assert source["file"] == "litellm/model_prices_and_context_window_backup.json"
    overrides = resources.files("astra_memory.costs").joinpath("price_overrides.json").read_bytes()
    assert source["overrides_sha256"] == hashlib.sha256(overrides).hexdigest()  # regenerated after each edit
    assert all(m.source for m in table.models.values())
    assert "issue #25" in table.models["gpt-6-astra"].source
    assert table.tier_notes["fast"]["aliases"] == ["priority"] and "2026-07-30" in table.tier_notes["fast"]["source"]
    assert {"gpt-5.4", "gpt-5.5", "gpt-5.6", "gpt-6-sol", "gpt-6.1-sol", "gpt-6-astra"} <= set(table.models)
    assert [c["model"] for c in table.conflicts] == ["gpt-4o-2024-05-13"]  # LiteLLM says 2026-10-23


def _litellm_entry(**prices_per_token) -> dict:
    return {"litellm_provider": "openai", "mode": "chat", **prices_per_token}


OVERRIDES = {
    "tiers": {"fast": {"aliases": ["priority"], "source": "s"}},
    "models": {"new-model": {"input": 10, "cached_input": 1, "output": 50, "source": "issue #25",
                             "long_context": {"above_input_tokens": 272000, "input_factor": 2, "output_factor": 1.5},
                             "tiers": {"flex": {"factor": 0.5}}},
               "old": {"input": 5, "output": 15, "source": "issue #25"}},
    "shutdowns": [{"pattern": r"old-\d{4}-\d{2}-\d{2}", "date": "2027-01-14", "source": "deprecations page"}],
}


def test_build_table_reads_litellm_keys_and_merges_the_overrides():
    price_map = {
        "sample_spec": {"litellm_provider": "one of ..."},
        "old": _litellm_entry(input_cost_per_token=2.5e-06, output_cost_per_token=1e-05),
        "old-2024-05-13": _litellm_entry(input_cost_per_token=5e-06, output_cost_per_token=1.5e-05,
                                         deprecation_date="2026-10-23", deprecation_source="https://x/deprecations"),
        "big": _litellm_entry(input_cost_per_token=2.5e-06, output_cost_per_token=1.5e-05,
                              cache_read_input_token_cost=2.5e-07, input_cost_per_token_above_272k_tokens=5e-06,
                              output_cost_per_token_above_272k_tokens=2.25e-05, input_cost_per_token_priority=5e-06,
                              output_cost_per_token_priority=3e-05, input_cost_per_token_batches=1.25e-06,
                              output_cost_per_token_batches=7.5e-06, input_cost_per_token_ultrafast=1e-04,
                              regional_processing_uplift_multiplier_eu=1.1, successor_model="old"),
        "azure/big": {**_litellm_entry(input_cost_per_token=1e-06, output_cost_per_token=1e-06)},
        "ft:old": _litellm_entry(input_cost_per_token=1e-06, output_cost_per_token=1e-06),
        "embed": {"litellm_provider": "openai", "mode": "embedding", "input_cost_per_token": 1e-07},
    }
    table = build_table(price_map, OVERRIDES, source={"package": "litellm", "version": "9.9"}, generated_on="2026-12-02")
    models = table["models"]
    assert set(models) == {"old", "old-2024-05-13", "big", "new-model"}
    big = models["big"]
    assert (big["input"], big["cached_input"], big["output"]) == (2.5, 0.25, 15.0)
    assert big["long_context"] == {"above_input_tokens": 272000, "input": 5.0, "output": 22.5}
    assert big["tiers"]["fast"]["input"] == 5.0 and "ultrafast" not in big["tiers"]
    assert big["tiers"]["fast"]["long_context"] == {"input": 10.0, "output": 45.0}  # derived: x2, x1.5
    assert big["tiers"]["batch"]["long_context"] == {"input": 2.5, "output": 11.25}
    assert big["uplift"] == {"eu": 1.1} and big["successor"] == "old"
    new = models["new-model"]
    assert new["long_context"] == {"above_input_tokens": 272000, "input": 20.0, "cached_input": 2.0, "output": 75.0}
    assert new["tiers"]["flex"]["long_context"] == {"input": 10.0, "cached_input": 1.0, "output": 37.5}
    assert "issue #25" in new["source"]
    dated = models["old-2024-05-13"]
    assert dated["shutdown"] == "2027-01-14" and dated["shutdown_source"] == "deprecations page"
    assert [c for c in table["conflicts"] if c["model"] == "old-2024-05-13"] == [
        {"model": "old-2024-05-13", "field": "shutdown", "generated": "2026-10-23", "override": "2027-01-14",
         "kept": "override", "source": "deprecations page"}]
    assert models["old"]["input"] == 5.0  # the override wins (and the change is on record: the next test)
    assert json.loads(dump_table(table)) == table
    parse_table(json.loads(dump_table(table)))


def test_build_table_records_an_override_that_changes_a_price_and_refuses_what_it_does_not_understand():
    price_map = {"old": _litellm_entry(input_cost_per_token=2.5e-06, output_cost_per_token=1e-05)}
    overrides = {"models": {"old": {"input": 5, "output": 15, "source": "issue #25"}}}
    table = build_table(price_map, overrides, source={}, generated_on="2026-12-02")
    assert [(c["field"], c["generated"], c["override"]) for c in table["conflicts"]] == [
        ("input", 2.5, 5.0), ("output", 10.0, 15.0)]
    two_thresholds = {"m": _litellm_entry(input_cost_per_token=1e-06, output_cost_per_token=1e-06,
                                          input_cost_per_token_above_128k_tokens=2e-06,
                                          output_cost_per_token_above_128k_tokens=2e-06,
                                          input_cost_per_token_above_272k_tokens=3e-06)}
    with pytest.raises(ValueError, match="more than one long-context threshold"):
        build_table(two_thresholds, {}, source={}, generated_on="2026-12-02")
    cheaper_long = {"m": _litellm_entry(input_cost_per_token=2e-06, output_cost_per_token=1e-06,
                                        input_cost_per_token_above_272k_tokens=1e-06,
                                        output_cost_per_token_above_272k_tokens=1e-06)}
    with pytest.raises(ValueError, match="long-context prices are below its base prices"):
        build_table(cheaper_long, {}, source={}, generated_on="2026-12-02")
    with pytest.raises(ValueError, match="names models the table does not have"):
        build_table(price_map, {"shutdowns": [{"models": ["gone"], "date": "2026-12-11", "source": "s"}]}, source={},
                    generated_on="2026-12-02")
    assert per_mtok(1.25e-07) == 0.125 and per_mtok(6.25e-07) == 0.625


def _script():
    spec = importlib.util.spec_from_file_location("update_prices", ROOT / "scripts" / "update_prices.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_script_records_the_litellm_version_file_and_date_and_checks_a_table(tmp_path, capsys):
    price_map = {"m": _litellm_entry(input_cost_per_token=1e-06, output_cost_per_token=4e-06,
                                     deprecation_date="2027-01-01")}
    raw = json.dumps(price_map).encode()
    wheel = tmp_path / "litellm-9.9.9-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("litellm/model_prices_and_context_window_backup.json", raw)
        archive.writestr("litellm-9.9.9.dist-info/METADATA", "Metadata-Version: 2.4\nName: litellm\nVersion: 9.9.9\n")
    overrides = tmp_path / "price_overrides.json"
    overrides.write_text(json.dumps({"models": {}}))
    out = tmp_path / "prices.json"
    script = _script()
    args = ["--wheel", str(wheel), "--overrides", str(overrides), "--out", str(out), "--today", "2026-12-02"]
    assert script.main(args) == 0
    table = parse_table(json.loads(out.read_text()))
    assert table.generated_on == date(2026, 12, 2) and table.source["version"] == "9.9.9"
    assert table.source["artifact"] == wheel.name and table.source["sha256"] == hashlib.sha256(raw).hexdigest()
    assert table.models["m"].standard.rates.input == 1.0 and table.models["m"].shutdown == date(2027, 1, 1)
    assert script.main([*args, "--check"]) == 0
    overrides.write_text(json.dumps({"models": {"m": {"input": 2, "source": "x"}}}))
    assert script.main([*args, "--check"]) == 1
    assert "DIFFERS" in capsys.readouterr().out


# -- astra-memory prices [MODEL] --------------------------------------------------------------------

def _prices_app() -> typer.Typer:
    app = typer.Typer()
    app.command()(prices)
    app.command("other")(lambda: None)  # two commands: `prices` is a subcommand, as in the real app
    return app


def test_the_prices_command_shows_what_the_guard_uses_and_where_it_came_from(monkeypatch):
    runner = CliRunner()
    result = runner.invoke(_prices_app(), ["prices", "openai:gpt-6-astra"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "litellm 1." in result.output and "generated 2026-12-02" in result.output
    assert "above 272,000 input tokens: 20 / 75" in result.output and "issue #25" in result.output
    data = json.loads(runner.invoke(_prices_app(), ["prices", "gpt-5-nano", "--json"]).stdout)
    assert data["guard"]["flex"]["input"] == 0.025 and "refused" in data["guard"]["fast (priority)"]
    assert data["shutdown"] == "2026-12-11" and data["shut_down"] is False
    assert data["table"]["source"]["package"] == "litellm"
    monkeypatch.setenv("ASTRA_SERVICE_TIER", "priority")
    data = json.loads(runner.invoke(_prices_app(), ["prices", "gpt-5.4", "--json"]).stdout)
    assert data["this_environment"]["price"]["input"] == 5.0
    listing = json.loads(runner.invoke(_prices_app(), ["prices", "--json"]).stdout)
    assert "gpt-6-astra" in listing["models"] and "o1" not in listing["models"]  # o1 shut down 2026-10-23
    assert "o1" in json.loads(runner.invoke(_prices_app(), ["prices", "--all", "--json"]).stdout)["models"]
    unknown = runner.invoke(_prices_app(), ["prices", "gpt-6-astr"])
    assert unknown.exit_code == 2 and "gpt-6-astra" in unknown.output
    monkeypatch.setattr(prices_module, "current_date", lambda: TODAY + timedelta(days=120))
    stale = runner.invoke(_prices_app(), ["prices", "gpt-6-astra"])
    assert stale.exit_code == 0 and "120 days old" in stale.output


def test_the_pinned_price_date_is_read_and_a_bad_one_refused(monkeypatch):
    current_date = REAL_CURRENT_DATE  # the module's own, not the fixture's stand-in
    monkeypatch.setenv("ASTRA_PRICE_DATE", "2026-12-11")
    assert current_date().isoformat() == "2026-12-11"
    with pytest.raises(ConfigurationError, match="ASTRA_PRICE_DATE"):
        monkeypatch.setenv("ASTRA_PRICE_DATE", "next tuesday")
        current_date()

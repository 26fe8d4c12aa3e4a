"""Regenerate the cost guard's price table, astra_memory/costs/prices.json.

Source: the price map LiteLLM maintains and ships inside its PyPI package
(``litellm/model_prices_and_context_window_backup.json``), with the hand-kept facts of
``astra_memory/costs/price_overrides.json`` merged over it. The table records the LiteLLM version,
the wheel and file it read (with its sha256), the overrides' sha256 and the date.

    python scripts/update_prices.py                      # pip download the newest litellm wheel (no deps)
    python scripts/update_prices.py --version 1.110.2    # a given release
    python scripts/update_prices.py --wheel litellm-1.110.2-....whl
    python scripts/update_prices.py --check              # exit 1 if the table is not what the sources give

litellm is only downloaded, never installed or imported, and is no dependency of this project.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import zipfile
from datetime import datetime, timezone
from email.parser import Parser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from astra_memory.costs.price_table import (  # noqa: E402  (after the sys.path line)
    OVERRIDES_FILE,
    TABLE_FILE,
    build_table,
    dump_table,
)

COSTS = ROOT / "astra_memory" / "costs"
PRICE_MAP = "litellm/model_prices_and_context_window_backup.json"


def download_wheel(version: str | None, into: Path) -> Path:
    spec = f"litellm=={version}" if version else "litellm"
    subprocess.run([sys.executable, "-m", "pip", "download", spec, "--no-deps", "--only-binary", ":all:",
                    "--dest", str(into), "--quiet"], check=True)
    wheels = sorted(into.glob("litellm-*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"expected one litellm wheel in {into}, found {[w.name for w in wheels]}")
    return wheels[0]


def read_wheel(wheel: Path) -> tuple[dict, dict]:
    """The price map and where it came from (version from the wheel's own METADATA)."""
    with zipfile.ZipFile(wheel) as archive:
        raw = archive.read(PRICE_MAP)
        metadata = next(n for n in archive.namelist() if re.fullmatch(r"litellm-[^/]+\.dist-info/METADATA", n))
        meta = Parser().parsestr(archive.read(metadata).decode("utf-8"), headersonly=True)
    return json.loads(raw), {
        "name": "LiteLLM model price map",
        "package": "litellm",
        "version": meta["Version"],
        "artifact": wheel.name,
        "file": PRICE_MAP,
        "sha256": hashlib.sha256(raw).hexdigest(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--wheel", type=Path, help="a litellm wheel already downloaded")
    where.add_argument("--version", help="the litellm release to download (default: the newest)")
    parser.add_argument("--today", help="the generation date, YYYY-MM-DD (default: today, UTC)")
    parser.add_argument("--out", type=Path, default=COSTS / TABLE_FILE)
    parser.add_argument("--overrides", type=Path, default=COSTS / OVERRIDES_FILE)
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if --out differs from what the sources give (dates aside)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="astra-prices-") as tmp:
        wheel = args.wheel or download_wheel(args.version, Path(tmp))
        price_map, source = read_wheel(wheel)
    overrides_raw = args.overrides.read_bytes()
    source["overrides"] = f"astra_memory/costs/{args.overrides.name}"
    source["overrides_sha256"] = hashlib.sha256(overrides_raw).hexdigest()
    today = args.today or datetime.now(timezone.utc).date().isoformat()
    try:
        table = build_table(price_map, json.loads(overrides_raw), source=source, generated_on=today)
    except ValueError as exc:
        print(f"error: the price map is not understood, nothing was written: {exc}", file=sys.stderr)
        return 2

    if args.check:
        current = json.loads(args.out.read_text(encoding="utf-8"))
        same = {**current, "generated_on": None} == {**table, "generated_on": None}
        print(f"{args.out}: {'up to date with' if same else 'DIFFERS from'} litellm {source['version']} + overrides")
        return 0 if same else 1
    args.out.write_text(dump_table(table), encoding="utf-8")
    shut = sum(1 for m in table["models"].values() if m.get("shutdown") and m["shutdown"] <= today)
    print(f"wrote {args.out}: {len(table['models'])} models from litellm {source['version']} ({source['artifact']}, "
          f"{PRICE_MAP} sha256 {source['sha256'][:12]}), generated {today}; {shut} already shut down; "
          f"{len(table['conflicts'])} override conflict(s)")
    for conflict in table["conflicts"]:
        print(f"  override kept: {conflict['model']} {conflict['field']}: litellm {conflict['generated']!r} -> "
              f"{conflict['override']!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

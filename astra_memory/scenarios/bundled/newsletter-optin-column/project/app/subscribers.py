"""Import of subscriber exports (CSV with email and opt_in columns)."""

import csv
import io

from app.optin import parse_opt_in


def import_subscribers(csv_text: str) -> list[str]:
    """E-mail addresses (lower-cased) of everyone who opted in, in file order."""
    rows = csv.DictReader(io.StringIO(csv_text))
    return [row["email"].strip().lower() for row in rows if parse_opt_in(row.get("opt_in"))]


def opt_in_rate(csv_text: str) -> float:
    """Share of the exported rows that opted in."""
    total = sum(1 for _ in csv.DictReader(io.StringIO(csv_text)))
    return len(import_subscribers(csv_text)) / total if total else 0.0

"""Imports catalogue rows from CSV text into book records."""

import csv
import io

from app.columns import column_key


def read_catalogue(text: str) -> list[dict[str, str]]:
    """One record per non-empty CSV row, keyed by the canonical column keys."""
    reader = csv.reader(io.StringIO(text))
    keys = [column_key(header) for header in next(reader)]
    return [dict(zip(keys, (cell.strip() for cell in row))) for row in reader if row]


def titles(text: str) -> list[str]:
    """Titles of all books in the export, in file order; rows without a title are skipped."""
    return [record["book_title"] for record in read_catalogue(text) if record.get("book_title")]

"""Column headers of catalogue spreadsheets exported by partner libraries."""


def column_key(header: str) -> str:
    """Canonical record key for a spreadsheet column header ("Book Title" -> "book_title")."""
    return header.strip().lower()


def missing_columns(headers: list[str], required: tuple[str, ...]) -> list[str]:
    """Required record keys for which the spreadsheet has no column."""
    present = {column_key(header) for header in headers}
    return [key for key in required if key not in present]

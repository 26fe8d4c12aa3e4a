"""Column headers of catalogue spreadsheets exported by partner libraries."""


def column_key(header: str) -> str:
    """Canonical record key for a spreadsheet column header ("Book Title" -> "book_title")."""
    return header.strip().lower()

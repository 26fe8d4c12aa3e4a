"""The pager shown underneath an album."""

from app.album import pages_needed


def pager_links(photo_count: int, current: int, per_page: int = 12) -> list[str]:
    """Page labels for the pager, the current page in brackets."""
    last = pages_needed(photo_count, per_page)
    return [f"[{n}]" if n == current else str(n) for n in range(1, last + 1)]


def next_page(photo_count: int, current: int, per_page: int = 12) -> int | None:
    """Number of the page after the current one, or None on the last page."""
    return current + 1 if current < pages_needed(photo_count, per_page) else None

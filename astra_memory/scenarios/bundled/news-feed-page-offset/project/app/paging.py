"""Pagination helpers for the newsroom's article feed (pages are numbered from 1)."""

import math


def page_count(total: int, per_page: int) -> int:
    """Number of pages needed for total items; an empty feed still has one page."""
    return max(1, math.ceil(total / per_page))


def page_slice(items: list, page: int, per_page: int) -> list:
    """Items shown on the given 1-based page."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    start = page * per_page
    return items[start:start + per_page]

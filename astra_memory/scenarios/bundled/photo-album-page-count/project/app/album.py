"""Photo albums split into pages of thumbnails."""


def pages_needed(photo_count: int, per_page: int) -> int:
    """Number of thumbnail pages needed to show every photo (an empty album has one page)."""
    if photo_count <= 0:
        return 1
    return photo_count // per_page


def photos_on_page(photos: list[str], page: int, per_page: int) -> list[str]:
    """Photos shown on a 1-based page; pages past the end are empty."""
    if page < 1 or page > pages_needed(len(photos), per_page):
        return []
    start = (page - 1) * per_page
    return photos[start:start + per_page]

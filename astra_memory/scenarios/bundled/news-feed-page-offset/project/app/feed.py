"""The public article feed, newest articles first."""

from app.paging import page_count, page_slice


def feed_page(articles: list[dict], page: int, per_page: int = 10) -> dict:
    """One page of the feed with the page number, the page count and the titles."""
    newest_first = sorted(articles, key=lambda article: article["published"], reverse=True)
    return {
        "page": page,
        "pages": page_count(len(newest_first), per_page),
        "titles": [article["title"] for article in page_slice(newest_first, page, per_page)],
    }

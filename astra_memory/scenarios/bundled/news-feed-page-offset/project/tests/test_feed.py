from app.feed import feed_page
from app.paging import page_slice

ARTICLES = [{"title": f"story-{n}", "published": f"2024-04-0{n}"} for n in range(1, 6)]


def test_first_page_starts_at_first_item():
    assert page_slice(list(range(1, 8)), 1, 3) == [1, 2, 3]


def test_last_partial_page_is_not_empty():
    assert page_slice(list(range(1, 8)), 3, 3) == [7]


def test_feed_first_page_shows_newest_articles():
    assert feed_page(ARTICLES, 1, per_page=2)["titles"] == ["story-5", "story-4"]


def test_feed_last_page():
    assert feed_page(ARTICLES, 3, per_page=2) == {"page": 3, "pages": 3, "titles": ["story-1"]}

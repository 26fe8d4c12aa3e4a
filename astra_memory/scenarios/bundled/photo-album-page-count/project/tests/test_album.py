from app.album import pages_needed, photos_on_page
from app.pager import pager_links

PHOTOS = [f"IMG_{n:04d}.jpg" for n in range(1, 26)]


def test_partial_last_page_is_counted():
    assert pages_needed(13, 12) == 2


def test_small_album_has_one_page():
    assert pages_needed(5, 12) == 1


def test_last_page_shows_remaining_photo():
    assert photos_on_page(PHOTOS, 3, 12) == ["IMG_0025.jpg"]


def test_pager_lists_every_page():
    assert pager_links(30, 2) == ["1", "[2]", "3"]

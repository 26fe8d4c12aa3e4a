from app.podium import podium, screen_lines
from app.ranking import top

SCORES = {"ann": 500, "bob": 700, "cy": 600, "dee": 400}


def test_top_two():
    assert top(SCORES, 2) == [(1, "bob", 700), (2, "cy", 600)]


def test_top_one_is_the_winner():
    assert top(SCORES, 1) == [(1, "bob", 700)]


def test_podium_has_three_players():
    assert podium(SCORES) == ["bob", "cy", "ann"]


def test_ties_are_ordered_by_name():
    assert top({"zed": 10, "amy": 10, "kim": 5}, 2) == [(1, "amy", 10), (2, "zed", 10)]


def test_screen_lines_for_top_four():
    assert len(screen_lines(SCORES, 4)) == 4

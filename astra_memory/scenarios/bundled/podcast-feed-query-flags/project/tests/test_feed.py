from app.feed import Episode, render_feed
from app.query import feed_options

EPISODES = [
    Episode("Ep. 42: Live from the pub", explicit=True),
    Episode("Bonus: Outtakes", bonus=True),
    Episode("Ep. 41: Garden birds"),
    Episode("Bonus: Listener mail, uncut", explicit=True, bonus=True),
    Episode("Ep. 40: Night trains"),
]


def test_explicit_no_hides_explicit_episodes():
    assert render_feed(EPISODES, "explicit=no") == [
        "Bonus: Outtakes", "Ep. 41: Garden birds", "Ep. 40: Night trains"]


def test_bonus_zero_hides_bonus_episodes():
    assert render_feed(EPISODES, "bonus=0") == [
        "Ep. 42: Live from the pub", "Ep. 41: Garden birds", "Ep. 40: Night trains"]


def test_options_are_real_booleans():
    assert feed_options("explicit=false&bonus=TRUE&limit=10") == {
        "explicit": False, "bonus": True, "limit": 10}


def test_last_repeated_value_wins():
    assert render_feed(EPISODES, "explicit=yes&explicit=off&bonus=off&limit=1") == ["Ep. 41: Garden birds"]

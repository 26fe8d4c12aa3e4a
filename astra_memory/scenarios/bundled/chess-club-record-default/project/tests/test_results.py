from app.players import new_player
from app.results import report_game, standings


def test_loser_record_only_counts_the_loss():
    ana, ben = new_player("Ana"), new_player("Ben")
    report_game(ana, ben, "1-0")
    assert ben["record"] == {"won": 0, "drawn": 0, "lost": 1}


def test_new_member_starts_with_empty_record():
    cleo, dan = new_player("Cleo"), new_player("Dan")
    report_game(cleo, dan, "1/2-1/2")
    assert new_player("Eve")["record"] == {"won": 0, "drawn": 0, "lost": 0}


def test_standings_after_two_games():
    fay, gus, hal = new_player("Fay"), new_player("Gus"), new_player("Hal")
    report_game(fay, gus, "1-0")
    report_game(hal, fay, "1/2-1/2")
    assert standings([fay, gus, hal]) == [("Fay", 1.5), ("Hal", 0.5), ("Gus", 0.0)]

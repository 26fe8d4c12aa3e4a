from app.answers import is_correct
from app.deck import PracticeSession

CARDS = {"foot": "Fu\u00df", "child": "ni\u00f1o", "street": "Stra\u00dfe"}


def test_upper_case_ss_matches_sharp_s():
    assert is_correct("FUSS", "Fu\u00df") is True


def test_decomposed_tilde_matches():
    assert is_correct("nin\u0303o", "ni\u00f1o") is True


def test_session_score():
    session = PracticeSession(CARDS)
    session.answer("foot", "fuss")
    session.answer("child", "NIN\u0303O")
    session.answer("street", " strasse ")
    assert session.score() == "3/3"

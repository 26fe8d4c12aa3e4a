from app.calc import double


def test_double():
    assert double(5) == 10

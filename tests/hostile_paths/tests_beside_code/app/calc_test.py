from app.calc import add


def test_add_beside_the_code():
    assert add(1, 1) == 2

from app.lookup import matches, search
from app.phonebook import Contact, fold

CONTACTS = [
    Contact("Johann Strauß", "Wien", "+43 1 234"),
    Contact("Eva Weiß", "Gießen", "+49 641 55"),
    Contact("Jürgen Großmann", "Gießen", "+49 641 77"),
    Contact("Anna Berg", "Kassel", "+49 561 12"),
]


def test_fold_maps_sharp_s():
    assert fold("Weiß") == fold("WEISS")


def test_upper_case_query_finds_sharp_s_name():
    assert matches("STRAUSS", CONTACTS[0]) is True


def test_city_search_with_ss_spelling():
    assert search("giessen", CONTACTS) == ["Eva Weiß", "Jürgen Großmann"]


def test_partial_name_query():
    assert search("grossm", CONTACTS) == ["Jürgen Großmann"]

import unicodedata

from app.collection import Artwork, Collection
from app.textkeys import search_key

WORKS = [
    Artwork("Melencolia I", "Albrecht Dürer", 1514),
    Artwork("The Grieving Parents", "Käthe Kollwitz", 1932),
    Artwork("Barge Haulers on the Volga", "Ilya Repin", 1873),
    # Entered on a Mac: accents stored as separate combining characters (NFD).
    Artwork("Paseo a orillas del mar", unicodedata.normalize("NFD", "Joaquín Sorolla"), 1909),
]


def test_search_key_drops_accents():
    assert search_key("Albrecht  Dürer") == "albrecht durer"


def test_plain_query_finds_accented_artist():
    assert Collection(WORKS).search("durer") == ["Melencolia I"]


def test_upper_case_plain_query():
    assert Collection(WORKS).search("KATHE") == ["The Grieving Parents"]


def test_decomposed_catalogue_entry_is_found():
    assert Collection(WORKS).search("joaquin sorolla") == ["Paseo a orillas del mar"]


def test_accented_query_finds_plain_catalogue_entry():
    assert Collection(WORKS).search("Répin") == ["Barge Haulers on the Volga"]

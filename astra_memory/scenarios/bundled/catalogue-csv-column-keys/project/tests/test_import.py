from app.columns import column_key
from app.importer import read_catalogue, titles

EXPORT = "ISBN,Book Title,Author\n978-0441013593,Dune,Frank Herbert\n978-0141439587,Emma,Jane Austen\n"


def test_header_with_space_becomes_snake_case():
    assert column_key("Book Title") == "book_title"


def test_padding_and_repeated_spaces_collapse():
    assert column_key("  Publication   Year ") == "publication_year"


def test_records_use_canonical_keys():
    assert read_catalogue(EXPORT)[0] == {
        "isbn": "978-0441013593",
        "book_title": "Dune",
        "author": "Frank Herbert",
    }


def test_titles_of_export():
    assert titles(EXPORT) == ["Dune", "Emma"]

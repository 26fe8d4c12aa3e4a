from app.application import application_row, unknown_keys
from app.keys import snake_key


def test_camel_case_key_becomes_snake_case():
    assert snake_key("petName") == "pet_name"


def test_boolean_field_key():
    assert snake_key("hasGarden") == "has_garden"


def test_application_row_keeps_names():
    row = application_row({"applicantName": "Ada Byron", "petName": "Biscuit", "email": "ada@example.org"})
    assert row == {
        "applicant_name": "Ada Byron",
        "pet_name": "Biscuit",
        "has_garden": None,
        "email": "ada@example.org",
    }


def test_only_truly_unknown_keys_are_reported():
    assert unknown_keys({"petName": "Biscuit", "hasGarden": True, "favouriteColour": "red"}) == ["favouriteColour"]

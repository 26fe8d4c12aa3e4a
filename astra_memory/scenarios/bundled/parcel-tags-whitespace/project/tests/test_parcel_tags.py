from app.handling import handling_lane, needs_cold_chain
from app.labels import parse_label_tags, unknown_tags


def test_tags_after_comma_are_trimmed():
    assert parse_label_tags("Fragile, Perishable") == ["fragile", "perishable"]


def test_perishable_second_tag_needs_cold_chain():
    assert needs_cold_chain("fragile, perishable") is True


def test_oversize_after_comma_goes_to_bulk_lane():
    assert handling_lane("signature, oversize") == "bulk"


def test_known_tags_with_padding_are_not_unknown():
    assert unknown_tags("fragile , signature") == []


def test_duplicate_and_blank_tags_are_collapsed():
    assert parse_label_tags("fragile, fragile , ,FRAGILE") == ["fragile"]

from app.fleetconfig import parse_bike_ids
from app.rental import RentalDesk


def test_indented_bike_ids_are_trimmed():
    assert parse_bike_ids("B-102\n  B-117\n\tB-230\n") == {"B-102", "B-117", "B-230"}


def test_config_saved_with_windows_line_endings():
    assert parse_bike_ids("b-102\r\nb-117\r\n") == {"B-102", "B-117"}


def test_indented_comments_and_blank_lines_are_skipped():
    block = "B-102\n    # waiting for brake pads\n   \n    B-230"
    assert parse_bike_ids(block) == {"B-102", "B-230"}


def test_bikes_in_the_workshop_are_not_offered():
    desk = RentalDesk(["B-101", "B-102", "B-117", "B-230"], maintenance="B-102\n  B-117 \n")
    assert desk.available() == ["B-101", "B-230"]

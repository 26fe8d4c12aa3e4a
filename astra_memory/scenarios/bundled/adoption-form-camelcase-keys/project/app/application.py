"""Adoption applications built from the web-form payload."""

from app.keys import snake_key

COLUMNS = ("applicant_name", "pet_name", "has_garden", "email")


def application_row(payload: dict) -> dict:
    """Row for the applications table: known columns only, missing ones set to None."""
    row = {column: None for column in COLUMNS}
    for key, value in payload.items():
        column = snake_key(key)
        if column in row:
            row[column] = value
    return row


def unknown_keys(payload: dict) -> list[str]:
    """Payload keys that do not map to a column (reported back to the form)."""
    return [key for key in payload if snake_key(key) not in COLUMNS]

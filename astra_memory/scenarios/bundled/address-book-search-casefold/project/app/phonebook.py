"""Contacts of the address book and the caseless text comparison used by search."""

from dataclasses import dataclass


@dataclass
class Contact:
    name: str
    city: str
    phone: str


def fold(text: str) -> str:
    """Form of a text used for caseless matching, with runs of whitespace collapsed."""
    return " ".join(text.split()).lower()

"""Search over the address book."""

from app.phonebook import Contact, fold


def matches(query: str, contact: Contact) -> bool:
    """True if the query occurs in the contact's name or city, ignoring case."""
    needle = fold(query)
    return needle in fold(contact.name) or needle in fold(contact.city)


def search(query: str, contacts: list[Contact]) -> list[str]:
    """Names of the matching contacts, alphabetically."""
    return sorted(contact.name for contact in contacts if matches(query, contact))

"""Search keys for artist names and titles, so that searches ignore accents and case."""

import unicodedata


def search_key(text: str) -> str:
    """ "Albrecht  Dürer" -> "albrecht durer": accents dropped, case folded, spaces collapsed."""
    composed = unicodedata.normalize("NFC", text)
    stripped = "".join(ch for ch in composed if not unicodedata.combining(ch))
    return " ".join(stripped.casefold().split())

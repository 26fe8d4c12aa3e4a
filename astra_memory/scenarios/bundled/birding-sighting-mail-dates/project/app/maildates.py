"""Times of sighting reports, taken from the Date header of the member's e-mail (RFC 2822)."""

from datetime import datetime
from email.utils import parsedate_to_datetime


def parse_mail_date(header: str) -> datetime:
    """The moment a report was sent, e.g. "Sat, 11 May 2024 06:40:00 +0200"."""
    return parsedate_to_datetime(header.strip())

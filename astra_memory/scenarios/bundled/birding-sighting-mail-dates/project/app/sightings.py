"""The club's sighting log."""

from dataclasses import dataclass
from datetime import datetime

from app.maildates import parse_mail_date


@dataclass
class Sighting:
    species: str
    reported: datetime


class SightingLog:
    def __init__(self):
        self.sightings: list[Sighting] = []

    def record(self, species: str, date_header: str) -> Sighting:
        sighting = Sighting(species, parse_mail_date(date_header))
        self.sightings.append(sighting)
        return sighting

    def latest_first(self) -> list[str]:
        ordered = sorted(self.sightings, key=lambda s: s.reported, reverse=True)
        return [s.species for s in ordered]

    def reported_since(self, moment: datetime) -> list[str]:
        """Species reported at or after an aware moment, in the order they were recorded."""
        return [s.species for s in self.sightings if s.reported >= moment]

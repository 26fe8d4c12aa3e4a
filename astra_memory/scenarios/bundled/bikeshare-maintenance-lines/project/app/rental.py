"""The rental desk: which bikes may be handed out right now."""

from app.fleetconfig import parse_bike_ids


class BikeUnavailable(Exception):
    """The bike cannot be rented: unknown, already out, or in the workshop."""


class RentalDesk:
    def __init__(self, fleet: list[str], maintenance: str = ""):
        self.fleet = [bike.upper() for bike in fleet]
        self.in_workshop = parse_bike_ids(maintenance)
        self.rented: set[str] = set()

    def available(self) -> list[str]:
        """Bikes that can be rented, in fleet order."""
        return [bike for bike in self.fleet if bike not in self.in_workshop and bike not in self.rented]

    def rent(self, bike_id: str) -> str:
        bike = bike_id.upper()
        if bike not in self.fleet:
            raise BikeUnavailable(f"unknown bike {bike}")
        if bike in self.in_workshop:
            raise BikeUnavailable(f"{bike} is in maintenance")
        if bike in self.rented:
            raise BikeUnavailable(f"{bike} is already rented")
        self.rented.add(bike)
        return bike

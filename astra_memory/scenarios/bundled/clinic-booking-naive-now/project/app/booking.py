"""Bookings of patients into appointment slots."""

from app.slots import current_time, is_bookable, parse_slot


class Clinic:
    def __init__(self):
        self.bookings: list[dict] = []

    def book(self, patient: str, slot_text: str) -> dict:
        """Book a slot for a patient; slots starting too soon are refused."""
        start = parse_slot(slot_text)
        if not is_bookable(start):
            raise ValueError(f"slot {slot_text} can no longer be booked")
        booking = {"patient": patient, "start": start}
        self.bookings.append(booking)
        return booking

    def upcoming(self) -> list[str]:
        """Patients with appointments still to come, earliest first."""
        now = current_time()
        future = sorted((b for b in self.bookings if b["start"] > now), key=lambda b: b["start"])
        return [b["patient"] for b in future]

"""careslot: online appointment booking for a medical clinic."""

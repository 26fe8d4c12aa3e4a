"""pedalpool: rentals and maintenance for a city bike-share fleet."""

"""paydeck: weekly payroll for hourly staff."""

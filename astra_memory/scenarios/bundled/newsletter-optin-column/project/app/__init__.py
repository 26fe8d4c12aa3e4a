"""mailcrate: mailing-list manager that imports subscriber exports."""

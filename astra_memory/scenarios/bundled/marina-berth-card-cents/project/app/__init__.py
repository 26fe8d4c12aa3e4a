"""moorline: berth, shore power and fuel charges of a small marina."""

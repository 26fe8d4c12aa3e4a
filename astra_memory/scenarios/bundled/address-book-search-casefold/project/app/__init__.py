"""addressnook: a personal address book with search."""

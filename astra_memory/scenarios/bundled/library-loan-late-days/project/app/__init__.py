"""lendwell: loans, returns and late fees for a public lending library."""

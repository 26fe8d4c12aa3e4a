"""Data files and databases: SQLite file errors explained, the set-up lock, PostgreSQL connections."""

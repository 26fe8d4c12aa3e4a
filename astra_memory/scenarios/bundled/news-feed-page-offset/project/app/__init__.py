"""inkwire: the public article feed of a small newsroom."""

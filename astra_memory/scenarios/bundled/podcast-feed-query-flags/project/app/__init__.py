"""castrail: serves the episode feed of a podcast network."""

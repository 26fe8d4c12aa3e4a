"""scorepeak: high-score leaderboard of an arcade hall."""

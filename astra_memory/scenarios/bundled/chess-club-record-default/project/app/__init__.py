"""rookhall: members, games and standings of a chess club."""

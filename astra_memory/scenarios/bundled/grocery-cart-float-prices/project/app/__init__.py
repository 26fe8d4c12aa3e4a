"""basketly: shopping cart of a grocery delivery web shop."""

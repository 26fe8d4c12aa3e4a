"""Shopping list for several recipes, minus what is already in the pantry."""

from app.ingredients import split_ingredients


def shopping_list(recipes: list[str], pantry: set[str]) -> list[str]:
    """Alphabetical list of ingredients to buy, each listed once."""
    needed: list[str] = []
    for line in recipes:
        for item in split_ingredients(line):
            if item not in pantry and item not in needed:
                needed.append(item)
    return sorted(needed)

"""Ingredient lines of recipes, written as "Flour | Sugar | Eggs"."""


def split_ingredients(line: str) -> list[str]:
    """Split a recipe's ingredient line on the pipe character into lower-case names."""
    items = []
    for chunk in line.split("|"):
        name = chunk.lower()
        if name:
            items.append(name)
    return items

from app.ingredients import split_ingredients
from app.shopping import shopping_list


def test_ingredient_names_are_trimmed():
    assert split_ingredients("Flour | Sugar | Eggs") == ["flour", "sugar", "eggs"]


def test_pantry_items_are_not_bought():
    assert shopping_list(["flour | eggs", "eggs | butter"], pantry={"flour"}) == ["butter", "eggs"]


def test_shared_ingredient_listed_once():
    assert shopping_list(["milk | oats", "oats"], pantry=set()) == ["milk", "oats"]


def test_blank_entries_are_dropped():
    assert split_ingredients("rice |  | beans |") == ["rice", "beans"]

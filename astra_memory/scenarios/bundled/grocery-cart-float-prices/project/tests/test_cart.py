from decimal import Decimal

from app.cart import Cart


def make_cart(*lines):
    cart = Cart()
    for sku, price, quantity in lines:
        cart.add(sku, price, quantity)
    return cart


def test_subtotal_of_two_cheap_items():
    assert make_cart(("apple", "0.10", 1), ("pear", "0.20", 1)).subtotal() == Decimal("0.30")


def test_subtotal_with_quantity():
    assert make_cart(("milk", "1.10", 3)).subtotal() == Decimal("3.30")


def test_delivery_free_at_exactly_thirty():
    cart = make_cart(("cheese", "10.10", 1), ("coffee", "9.95", 1), ("tea", "9.95", 1))
    assert cart.delivery_fee() == Decimal("0.00")


def test_total_includes_delivery_fee():
    cart = make_cart(("lemon", "0.10", 2), ("bread", "2.49", 1))
    assert cart.total() == Decimal("7.68")

"""Shopping cart with delivery fee rules."""

from app.prices import DELIVERY_FEE, FREE_DELIVERY_FROM, to_amount


class Cart:
    def __init__(self):
        self.lines: list[tuple[str, object, int]] = []

    def add(self, sku: str, unit_price: str, quantity: int = 1) -> None:
        self.lines.append((sku, to_amount(unit_price), quantity))

    def subtotal(self):
        return sum(price * quantity for _, price, quantity in self.lines)

    def delivery_fee(self):
        """Delivery is free from FREE_DELIVERY_FROM upwards."""
        if self.subtotal() >= to_amount(FREE_DELIVERY_FROM):
            return to_amount("0.00")
        return to_amount(DELIVERY_FEE)

    def total(self):
        return self.subtotal() + self.delivery_fee()

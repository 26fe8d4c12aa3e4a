from app.berths import fuel_line, payment_request
from app.cents import to_cents


def test_berth_fee_in_cents():
    assert to_cents("19.99") == 1999


def test_small_amounts_in_cents():
    assert [to_cents(amount) for amount in ("0.29", "0.57", "1.15")] == [29, 57, 115]


def test_fuel_is_rounded_half_up_to_the_cent():
    _, amount = fuel_line("12.5", "1.779")
    assert to_cents(amount) == 2224


def test_payment_request_total():
    request = payment_request([("Berth, 3 nights", "33.30"), ("Shore power", "4.35"), ("Showers", "2.01")])
    assert [item["cents"] for item in request["items"]] == [3330, 435, 201]
    assert request["total_cents"] == 3966

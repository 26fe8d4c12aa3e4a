from common import R, Q, hdr, colorize
F = "decimal-context-precision-too-low"

R("r-dcp-1", "fxrates", F, hdr("/home/ci/fxrates", 13) + """
tests/test_convert.py .....F.......                                      [100%]

=================================== FAILURES ===================================
_________________________ test_convert_large_amount ____________________________

    def test_convert_large_amount():
        conv = Converter(rates={"EURJPY": Decimal("161.237")})
>       assert conv.convert(Decimal("25000.00"), "EUR", "JPY") == Decimal("4030925.00")
E       AssertionError: assert Decimal('4.03092E+6') == Decimal('4030925.00')
E        +  where Decimal('4.03092E+6') = <bound method Converter.convert of <fxrates.convert.Converter object at 0x7f2c1e8a9d10>>(Decimal('25000.00'), 'EUR', 'JPY')
E        +    where <bound method Converter.convert of <fxrates.convert.Converter object at 0x7f2c1e8a9d10>> = <fxrates.convert.Converter object at 0x7f2c1e8a9d10>.convert
E        +  and   Decimal('4030925.00') = Decimal('4030925.00')

tests/test_convert.py:47: AssertionError
=========================== short test summary info ============================
FAILED tests/test_convert.py::test_convert_large_amount - AssertionError: assert Decimal('4.03092E+6') == Decimal('4030925.00')
========================= 1 failed, 12 passed in 0.02s =========================
""", "AssertionError", ["src/fxrates/__init__.py", "src/fxrates/convert.py"],
"The package __init__ set decimal.getcontext().prec = 6 to 'keep rates short', which applies to every Decimal operation in the thread, so multiplying large amounts rounded to six significant digits. Removed the global setting and quantize the converted amount to the target currency's minor unit inside a local context.",
"pytest passed with exit code 0 (13 passed)",
"""--- a/src/fxrates/__init__.py
+++ b/src/fxrates/__init__.py
@@ -1,6 +1,3 @@
-import decimal
-
-decimal.getcontext().prec = 6
 
 from .convert import Converter
 
--- a/src/fxrates/convert.py
+++ b/src/fxrates/convert.py
@@ -1,4 +1,4 @@
-from decimal import Decimal
+from decimal import Decimal, localcontext
 
 MINOR_UNIT = {"JPY": Decimal("0.01"), "EUR": Decimal("0.01"), "USD": Decimal("0.01")}
 
@@ -14,4 +14,6 @@ class Converter:
     def convert(self, amount, src, dst):
         rate = self.rates[src + dst]
-        return amount * rate
+        with localcontext() as ctx:
+            ctx.prec = 28
+            return (amount * rate).quantize(MINOR_UNIT[dst])
""")

R("r-dcp-2", "geodist", F, """.E..
======================================================================
ERROR: test_haversine_precise (tests.test_distance.DistanceTests.test_haversine_precise)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/nav/geodist/tests/test_distance.py", line 22, in test_haversine_precise
    d = distance(PARIS, LONDON, places=3)
        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/nav/geodist/geodist/distance.py", line 25, in distance
    return (2 * EARTH_RADIUS_KM * _asin(h.sqrt())).quantize(Decimal(10) ** -places)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
decimal.InvalidOperation: [<class 'decimal.InvalidOperation'>]

----------------------------------------------------------------------
Ran 4 tests in 0.003s

FAILED (errors=1)
""", "decimal.InvalidOperation", ["geodist/distance.py"],
"distance() ran inside localcontext() with prec = 4, but quantizing a ~343 km result to three decimal places needs 6 significant digits, more than the context allows, so quantize() raised InvalidOperation (and the intermediate trig values were badly rounded). Raised the local precision to 28 and only round the final value.",
"python -m unittest passed (OK, 4 tests)",
"""--- a/geodist/distance.py
+++ b/geodist/distance.py
@@ -18,7 +18,7 @@ def _asin(x):
 
 def distance(a, b, places=3):
     with localcontext() as ctx:
-        ctx.prec = 4
+        ctx.prec = 28
         dlat = _rad(b.lat - a.lat)
         dlon = _rad(b.lon - a.lon)
         h = _hav(dlat) + _cos(_rad(a.lat)) * _cos(_rad(b.lat)) * _hav(dlon)
""")

Q("q-dcp-1", "payrollkit", F, hdr("/srv/payrollkit", 18, plugins="cov-4.1.0") + """
tests/test_annual.py ........F.........                                  [100%]

=================================== FAILURES ===================================
__________________________ test_annual_gross_for_exec __________________________

    def test_annual_gross_for_exec():
        emp = Employee("E-0042", monthly=Decimal("18333.33"))
>       assert annual_gross(emp) == Decimal("219999.96")
E       AssertionError: assert Decimal('2.2000E+5') == Decimal('219999.96')
E        +  where Decimal('2.2000E+5') = annual_gross(Employee(id='E-0042', monthly=Decimal('18333.33')))

tests/test_annual.py:58: AssertionError
=========================== short test summary info ============================
FAILED tests/test_annual.py::test_annual_gross_for_exec - AssertionError: assert Decimal('2.2000E+5') == Decimal('219999.96')
========================= 1 failed, 17 passed in 0.05s =========================
""", "AssertionError")

Q("q-dcp-2", "meterbill", F, hdr("/home/ci/meterbill", 9, verbose=True) + """
tests/test_tariff.py::test_cost[small] PASSED                            [ 11%]
tests/test_tariff.py::test_cost[medium] PASSED                           [ 22%]
tests/test_tariff.py::test_cost[industrial] FAILED                       [ 33%]
tests/test_tariff.py::test_zero_usage PASSED                             [ 44%]
tests/test_tariff.py::test_negative_rejected PASSED                      [ 55%]
tests/test_tariff.py::test_standing_charge PASSED                        [ 66%]
tests/test_tariff.py::test_vat PASSED                                    [ 77%]
tests/test_invoice.py::test_lines PASSED                                 [ 88%]
tests/test_invoice.py::test_total PASSED                                 [100%]

=================================== FAILURES ===================================
____________________________ test_cost[industrial] _____________________________

kwh = Decimal('1250400.5'), expected = Decimal('362616.15')

    @pytest.mark.parametrize("kwh,expected", CASES, ids=["small", "medium", "industrial"])
    def test_cost(kwh, expected):
>       assert energy_cost(kwh) == expected

tests/test_tariff.py:14: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

kwh = Decimal('1250400.5')

    def energy_cost(kwh):
        if kwh < 0:
            raise ValueError("negative usage")
>       return (kwh * UNIT_RATE).quantize(CENT)
E       decimal.InvalidOperation: [<class 'decimal.InvalidOperation'>]

src/meterbill/tariff.py:31: InvalidOperation
=========================== short test summary info ============================
FAILED tests/test_tariff.py::test_cost[industrial] - decimal.InvalidOperation: [<class 'decimal.InvalidOperation'>]
========================= 1 failed, 8 passed in 0.03s ==========================
""", "decimal.InvalidOperation")

Q("q-dcp-3", "ledgerroll", F, """..F...
======================================================================
FAIL: test_running_balance_exact (tests.test_balance.BalanceTests.test_running_balance_exact)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/acc/ledgerroll/tests/test_balance.py", line 35, in test_running_balance_exact
    self.assertEqual(book.balance(), Decimal("1000000.01"))
AssertionError: Decimal('1000000') != Decimal('1000000.01')

----------------------------------------------------------------------
Ran 6 tests in 0.002s

FAILED (failures=1)
""", "AssertionError")

Q("q-dcp-4", "vatcalc", F, colorize(hdr("/home/ci/vatcalc", 11) + """
tests/test_vat.py ..F........                                            [100%]

=================================== FAILURES ===================================
__________________________ test_vat_on_fleet_purchase __________________________

    def test_vat_on_fleet_purchase():
        order = Order(lines=[Line("truck", Decimal("84500.00"), qty=12)])
>       assert vat_due(order, rate="0.21") == Decimal("212940.00")
E       AssertionError: assert Decimal('2.129E+5') == Decimal('212940.00')
E        +  where Decimal('2.129E+5') = vat_due(Order(lines=[Line(name='truck', price=Decimal('84500.00'), qty=12)]), rate='0.21')

tests/test_vat.py:19: AssertionError
=========================== short test summary info ============================
FAILED tests/test_vat.py::test_vat_on_fleet_purchase - AssertionError: assert Decimal('2.129E+5') == Decimal('212940.00')
========================= 1 failed, 10 passed in 0.02s =========================
"""), "AssertionError")

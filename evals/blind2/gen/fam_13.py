from common import R, Q, hdr, colorize
F = "property-setter-self-assignment"

R("r-psr-1", "thermostat", F, hdr("/home/ci/thermostat", 10) + """
tests/test_device.py ..F.......                                          [100%]

=================================== FAILURES ===================================
__________________________ test_target_is_clamped ______________________________

    def test_target_is_clamped():
        t = Thermostat(room="hall")
>       t.target = 35

tests/test_device.py:18: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/thermostat/device.py:27: in target
    self.target = min(max(value, MIN_C), MAX_C)
src/thermostat/device.py:27: in target
    self.target = min(max(value, MIN_C), MAX_C)
E   RecursionError: maximum recursion depth exceeded in comparison
!!! Recursion detected (same locals & position)
=========================== short test summary info ============================
FAILED tests/test_device.py::test_target_is_clamped - RecursionError: maximum recursion depth exceeded in comparison
========================= 1 failed, 9 passed in 0.11s ==========================
""", "RecursionError", ["src/thermostat/device.py"],
"The target setter assigned to self.target, which re-entered the property setter forever. Store the clamped value in the backing attribute self._target (and read it from there in the getter).",
"pytest passed with exit code 0 (10 passed)",
"""--- a/src/thermostat/device.py
+++ b/src/thermostat/device.py
@@ -19,10 +19,10 @@ class Thermostat:
 
     @property
     def target(self):
-        return self.target
+        return self._target
 
     @target.setter
     def target(self, value):
-        self.target = min(max(value, MIN_C), MAX_C)
+        self._target = min(max(value, MIN_C), MAX_C)
""")

R("r-psr-2", "userprofile", F, """.E.
======================================================================
ERROR: test_email_is_lowercased (tests.test_profile.ProfileTests.test_email_is_lowercased)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/srv/userprofile/tests/test_profile.py", line 12, in test_email_is_lowercased
    p = Profile(name="Ada", email="Ada@Example.COM")
        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/srv/userprofile/userprofile/profile.py", line 9, in __init__
    self.email = email
    ^^^^^^^^^^
  File "/srv/userprofile/userprofile/profile.py", line 17, in email
    self.email = value.strip().lower()
    ^^^^^^^^^^
  File "/srv/userprofile/userprofile/profile.py", line 17, in email
    self.email = value.strip().lower()
    ^^^^^^^^^^
  File "/srv/userprofile/userprofile/profile.py", line 17, in email
    self.email = value.strip().lower()
    ^^^^^^^^^^
  [Previous line repeated 994 more times]
RecursionError: maximum recursion depth exceeded while calling a Python object

----------------------------------------------------------------------
Ran 3 tests in 0.015s

FAILED (errors=1)
""", "RecursionError", ["userprofile/profile.py"],
"The email property setter normalised the value and then assigned it back through self.email, calling itself recursively until the recursion limit. It now writes to self._email, which the getter returns.",
"python -m unittest passed (OK, 3 tests)",
"""--- a/userprofile/profile.py
+++ b/userprofile/profile.py
@@ -10,8 +10,8 @@ class Profile:
 
     @property
     def email(self):
-        return self.__dict__.get("email")
+        return self._email
 
     @email.setter
     def email(self, value):
-        self.email = value.strip().lower()
+        self._email = value.strip().lower()
""")

Q("q-psr-1", "audiomix", F, hdr("/home/dev/audiomix", 17, plugins="benchmark-4.0.0") + """
tests/test_channel.py ......F..........                                  [100%]

=================================== FAILURES ===================================
_________________________ test_volume_above_one_clamps _________________________

    def test_volume_above_one_clamps():
        ch = Channel("drums")
>       ch.volume = 1.7

tests/test_channel.py:33: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/audiomix/channel.py:22: in volume
    self.volume = max(0.0, min(v, 1.0))
src/audiomix/channel.py:22: in volume
    self.volume = max(0.0, min(v, 1.0))
E   RecursionError: maximum recursion depth exceeded while calling a Python object
!!! Recursion detected (same locals & position)
=========================== short test summary info ============================
FAILED tests/test_channel.py::test_volume_above_one_clamps - RecursionError: maximum recursion depth exceeded while calling a Python object
========================= 1 failed, 16 passed in 0.14s =========================
""", "RecursionError")

Q("q-psr-2", "shapes2d", F, hdr("/home/ci/shapes2d", 6) + """
tests/test_circle.py EEE...                                              [100%]

==================================== ERRORS ====================================
_____________________ ERROR at setup of test_circle_area _______________________

    @pytest.fixture
    def unit_circle():
>       return Circle(radius=1.0)

tests/test_circle.py:8: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/shapes2d/circle.py:10: in __init__
    self.radius = radius
src/shapes2d/circle.py:20: in radius
    self.radius = float(r)
src/shapes2d/circle.py:20: in radius
    self.radius = float(r)
E   RecursionError: maximum recursion depth exceeded while calling a Python object
!!! Recursion detected (same locals & position)
___________________ ERROR at setup of test_circle_perimeter ____________________

    @pytest.fixture
    def unit_circle():
>       return Circle(radius=1.0)

tests/test_circle.py:8: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/shapes2d/circle.py:10: in __init__
    self.radius = radius
src/shapes2d/circle.py:20: in radius
    self.radius = float(r)
src/shapes2d/circle.py:20: in radius
    self.radius = float(r)
E   RecursionError: maximum recursion depth exceeded while calling a Python object
!!! Recursion detected (same locals & position)
_____________________ ERROR at setup of test_circle_scale ______________________

    @pytest.fixture
    def unit_circle():
>       return Circle(radius=1.0)

tests/test_circle.py:8: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/shapes2d/circle.py:10: in __init__
    self.radius = radius
src/shapes2d/circle.py:20: in radius
    self.radius = float(r)
src/shapes2d/circle.py:20: in radius
    self.radius = float(r)
E   RecursionError: maximum recursion depth exceeded while calling a Python object
!!! Recursion detected (same locals & position)
=========================== short test summary info ============================
ERROR tests/test_circle.py::test_circle_area - RecursionError: maximum recursion depth exceeded while calling a Python object
ERROR tests/test_circle.py::test_circle_perimeter - RecursionError: maximum recursion depth exceeded while calling a Python...
ERROR tests/test_circle.py::test_circle_scale - RecursionError: maximum recursion depth exceeded while calling a Python object
========================= 3 passed, 3 errors in 0.21s ==========================
""", "RecursionError")

Q("q-psr-3", "bankacct", F, """F.E..
======================================================================
ERROR: test_withdraw_updates_balance (tests.test_account.AccountTests.test_withdraw_updates_balance)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/k/bankacct/tests/test_account.py", line 21, in test_withdraw_updates_balance
    acct.withdraw(40)
  File "/home/k/bankacct/bankacct/account.py", line 31, in withdraw
    self.balance -= amount
    ^^^^^^^^^^^^
  File "/home/k/bankacct/bankacct/account.py", line 18, in balance
    if value < 0:
       ^^^^^^^^^
  File "/home/k/bankacct/bankacct/account.py", line 20, in balance
    self.balance = value
    ^^^^^^^^^^^^
  File "/home/k/bankacct/bankacct/account.py", line 20, in balance
    self.balance = value
    ^^^^^^^^^^^^
  [Previous line repeated 993 more times]
  File "/home/k/bankacct/bankacct/account.py", line 18, in balance
    if value < 0:
       ^^^^^^^^^
RecursionError: maximum recursion depth exceeded in comparison

======================================================================
FAIL: test_overdraft_rejected (tests.test_account.AccountTests.test_overdraft_rejected)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/k/bankacct/tests/test_account.py", line 27, in test_overdraft_rejected
    with self.assertRaises(Overdraft):
AssertionError: Overdraft not raised

----------------------------------------------------------------------
Ran 5 tests in 0.031s

FAILED (failures=1, errors=1)
""", "RecursionError")

Q("q-psr-4", "colorpick", F, colorize(hdr("/home/ci/colorpick", 8, verbose=True) + """
tests/test_swatch.py::test_hex_normalised[lower] FAILED                  [ 12%]
tests/test_swatch.py::test_hex_normalised[short] FAILED                  [ 25%]
tests/test_swatch.py::test_rgb_tuple PASSED                              [ 37%]
tests/test_swatch.py::test_named PASSED                                  [ 50%]
tests/test_swatch.py::test_contrast PASSED                               [ 62%]
tests/test_swatch.py::test_lighten PASSED                                [ 75%]
tests/test_swatch.py::test_darken PASSED                                 [ 87%]
tests/test_swatch.py::test_repr PASSED                                   [100%]

=================================== FAILURES ===================================
__________________________ test_hex_normalised[lower] __________________________

raw = '#a1b2c3', expected = '#A1B2C3'

    @pytest.mark.parametrize("raw,expected", [("#a1b2c3", "#A1B2C3"), ("#abc", "#AABBCC")],
                             ids=["lower", "short"])
    def test_hex_normalised(raw, expected):
        s = Swatch.from_rgb(0, 0, 0)
>       s.hex = raw

tests/test_swatch.py:9: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/colorpick/swatch.py:34: in hex
    self.hex = _expand(value).upper()
src/colorpick/swatch.py:34: in hex
    self.hex = _expand(value).upper()
E   RecursionError: maximum recursion depth exceeded
!!! Recursion detected (same locals & position)
__________________________ test_hex_normalised[short] __________________________

raw = '#abc', expected = '#AABBCC'

    @pytest.mark.parametrize("raw,expected", [("#a1b2c3", "#A1B2C3"), ("#abc", "#AABBCC")],
                             ids=["lower", "short"])
    def test_hex_normalised(raw, expected):
        s = Swatch.from_rgb(0, 0, 0)
>       s.hex = raw

tests/test_swatch.py:9: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/colorpick/swatch.py:34: in hex
    self.hex = _expand(value).upper()
src/colorpick/swatch.py:34: in hex
    self.hex = _expand(value).upper()
E   RecursionError: maximum recursion depth exceeded
!!! Recursion detected (same locals & position)
=========================== short test summary info ============================
FAILED tests/test_swatch.py::test_hex_normalised[lower] - RecursionError: maximum recursion depth exceeded
FAILED tests/test_swatch.py::test_hex_normalised[short] - RecursionError: maximum recursion depth exceeded
========================= 2 failed, 6 passed in 0.09s ==========================
"""), "RecursionError")

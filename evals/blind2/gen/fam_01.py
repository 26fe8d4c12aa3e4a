from common import R, Q, hdr, colorize
F = "identity-comparison-is"

R("r-idc-1", "tallyhub", F, hdr("/home/ci/tallyhub", 14, plugins="cov-4.1.0") + """
tests/test_reconcile.py ....F.........                                   [100%]

=================================== FAILURES ===================================
________________________ test_reconcile_large_counts __________________________

    def test_reconcile_large_counts():
        shelf = Shelf.from_rows([("SKU-88", 1200), ("SKU-91", 300)])
        counted = {"SKU-88": int("1200"), "SKU-91": int("300")}
>       assert reconcile(shelf, counted) == []
E       AssertionError: assert ['SKU-88', 'SKU-91'] == []
E         Left contains 2 more items, first extra item: 'SKU-88'
E         Use -v to get more diff

tests/test_reconcile.py:41: AssertionError
=========================== short test summary info ============================
FAILED tests/test_reconcile.py::test_reconcile_large_counts - AssertionError: assert ['SKU-88', 'SKU-91'] == []
========================= 1 failed, 13 passed in 0.21s =========================
""", "AssertionError", ["src/tallyhub/reconcile.py"],
"reconcile() compared the expected and counted quantities with `is not`, which only happens to work for small cached ints (-5..256). Counts parsed from CSV above 256 are distinct int objects, so every large SKU was reported as a mismatch. Switched the comparison to `!=`.",
"pytest passed with exit code 0 (14 passed)",
"""--- a/src/tallyhub/reconcile.py
+++ b/src/tallyhub/reconcile.py
@@ -18,7 +18,7 @@ def reconcile(shelf, counted):
     mismatched = []
     for sku, expected in shelf.items():
         got = counted.get(sku)
-        if got is not expected:
+        if got != expected:
             mismatched.append(sku)
     return mismatched
""")

R("r-idc-2", "routewise", F, hdr("/srv/routewise", 9, py="3.12.1", pytest="8.0.2", pluggy="1.4.0", configfile="pyproject.toml") + """
tests/test_fares.py ..F......                                            [100%]

=================================== FAILURES ===================================
__________________________ test_express_fare_applied ___________________________

    def test_express_fare_applied():
        ticket = Ticket(origin="AMS", dest="UTR", mode="EXPRESS")
>       assert quote(ticket) == Decimal("14.40")
E       AssertionError: assert Decimal('9.60') == Decimal('14.40')
E        +  where Decimal('9.60') = quote(Ticket(origin='AMS', dest='UTR', mode='EXPRESS'))

tests/test_fares.py:27: AssertionError
=============================== warnings summary ===============================
src/routewise/fares.py:33
  /srv/routewise/src/routewise/fares.py:33: SyntaxWarning: "is" with a literal. Did you mean "=="?
    if mode is "express":

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
=========================== short test summary info ============================
FAILED tests/test_fares.py::test_express_fare_applied - AssertionError: assert Decimal('9.60') == Decimal('14.40')
=================== 1 failed, 8 passed, 1 warning in 0.09s ====================
""", "AssertionError", ["src/routewise/fares.py"],
"quote() checked `mode is \"express\"` after lowercasing the ticket mode; the lowered string is a new object, so the identity test was always False and the base fare was returned. Replaced the identity check with `==` as the SyntaxWarning suggested.",
"pytest passed with exit code 0 (9 passed)",
"""--- a/src/routewise/fares.py
+++ b/src/routewise/fares.py
@@ -30,7 +30,7 @@ def quote(ticket):
     base = BASE_FARES[(ticket.origin, ticket.dest)]
     mode = ticket.mode.lower()
-    if mode is "express":
+    if mode == "express":
         return (base * EXPRESS_MULTIPLIER).quantize(CENT)
     return base
""")

Q("q-idc-1", "pinecount", F, hdr("/home/dev/pinecount", 22) + """
tests/test_sync.py ..........F...........                                [100%]

=================================== FAILURES ===================================
_______________________ test_skip_when_versions_match _________________________

tmp_path = PosixPath('/tmp/pytest-of-dev/pytest-3/test_skip_when_versions_match0')

    def test_skip_when_versions_match(tmp_path):
        local = Manifest.load_json('{"version": 1024, "files": []}')
        remote = Manifest.load_json('{"version": 1024, "files": []}')
        plan = plan_sync(local, remote)
>       assert plan.action == "skip"
E       AssertionError: assert 'pull' == 'skip'
E         - skip
E         + pull

tests/test_sync.py:88: AssertionError
=========================== short test summary info ============================
FAILED tests/test_sync.py::test_skip_when_versions_match - AssertionError: assert 'pull' == 'skip'
========================= 1 failed, 21 passed in 0.33s =========================
""", "AssertionError")

Q("q-idc-2", "chorebot", F, """test_refresh_keeps_session (tests.test_auth.SessionTests.test_refresh_keeps_session) ... ERROR
test_refresh_small_ids (tests.test_auth.SessionTests.test_refresh_small_ids) ... ok
test_logout_clears (tests.test_auth.SessionTests.test_logout_clears) ... ok

======================================================================
ERROR: test_refresh_keeps_session (tests.test_auth.SessionTests.test_refresh_keeps_session)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/app/tests/test_auth.py", line 52, in test_refresh_keeps_session
    new = self.store.refresh(token)
          ^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/app/chorebot/auth/store.py", line 71, in refresh
    self._check_owner(token, session)
  File "/app/chorebot/auth/store.py", line 58, in _check_owner
    raise SessionMismatch(f"token user {token.user_id} != session user {session.user_id}")
chorebot.auth.errors.SessionMismatch: token user 40213 != session user 40213

----------------------------------------------------------------------
Ran 3 tests in 0.012s

FAILED (errors=1)
""", "SessionMismatch")

Q("q-idc-3", "gatekeep", F, colorize(hdr("/work/gatekeep", 11, py="3.11.2", plugins="anyio-4.2.0") + """
tests/test_perms.py ...F.......                                          [100%]

=================================== FAILURES ===================================
_______________________ test_admin_role_from_header ___________________________

    def test_admin_role_from_header():
        req = FakeRequest(headers={"X-Role": b"admin"})
>       assert allowed_actions(req) == {"read", "write", "delete"}

tests/test_perms.py:34: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/gatekeep/perms.py:22: in allowed_actions
    role = resolve_role(req.headers.get("X-Role", b"").decode())
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

raw = 'admin'

    def resolve_role(raw):
        for known in ROLES:
            if raw is known:
                return known
>       return PERMISSIONS[None]
E       KeyError: None

src/gatekeep/perms.py:15: KeyError
=========================== short test summary info ============================
FAILED tests/test_perms.py::test_admin_role_from_header - KeyError: None
========================= 1 failed, 10 passed in 0.05s =========================
"""), "KeyError")

Q("q-idc-4", "portmap", F, hdr("/home/ci/portmap", 8, verbose=True) + """
tests/test_rules.py::test_same_port[22] PASSED                           [ 12%]
tests/test_rules.py::test_same_port[80] PASSED                           [ 25%]
tests/test_rules.py::test_same_port[8080] FAILED                         [ 37%]
tests/test_rules.py::test_same_port[65535] FAILED                        [ 50%]
tests/test_rules.py::test_parse_rule PASSED                              [ 62%]
tests/test_rules.py::test_parse_range PASSED                             [ 75%]
tests/test_rules.py::test_reject_negative PASSED                         [ 87%]
tests/test_rules.py::test_dedupe PASSED                                  [100%]

=================================== FAILURES ===================================
_____________________________ test_same_port[8080] _____________________________

port = 8080

    @pytest.mark.parametrize("port", [22, 80, 8080, 65535])
    def test_same_port(port):
        a = Rule.parse(f"tcp:{port}->local")
        b = Rule.parse(f"tcp:{port}->local")
>       assert a.conflicts_with(b)
E       assert False
E        +  where False = <bound method Rule.conflicts_with of Rule(proto='tcp', port=8080, target='local')>(Rule(proto='tcp', port=8080, target='local'))
E        +    where <bound method Rule.conflicts_with of Rule(proto='tcp', port=8080, target='local')> = Rule(proto='tcp', port=8080, target='local').conflicts_with

tests/test_rules.py:19: AssertionError
____________________________ test_same_port[65535] _____________________________

port = 65535

    @pytest.mark.parametrize("port", [22, 80, 8080, 65535])
    def test_same_port(port):
        a = Rule.parse(f"tcp:{port}->local")
        b = Rule.parse(f"tcp:{port}->local")
>       assert a.conflicts_with(b)
E       assert False
E        +  where False = <bound method Rule.conflicts_with of Rule(proto='tcp', port=65535, target='local')>(Rule(proto='tcp', port=65535, target='local'))
E        +    where <bound method Rule.conflicts_with of Rule(proto='tcp', port=65535, target='local')> = Rule(proto='tcp', port=65535, target='local').conflicts_with

tests/test_rules.py:19: AssertionError
=========================== short test summary info ============================
FAILED tests/test_rules.py::test_same_port[8080] - assert False
FAILED tests/test_rules.py::test_same_port[65535] - assert False
========================= 2 failed, 6 passed in 0.04s ==========================
""", "AssertionError")

from common import R, Q, hdr, colorize
F = "base64-unpadded-input"

R("r-b64-1", "jwtlite", F, hdr("/home/ci/jwtlite", 19) + """
tests/test_decode.py ........F..........                                 [100%]

=================================== FAILURES ===================================
__________________________ test_decode_claims_from_idp _________________________

    def test_decode_claims_from_idp():
        token = load_fixture("idp_token.txt")
>       claims = decode_unverified(token)

tests/test_decode.py:52: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/jwtlite/decode.py:17: in decode_unverified
    payload = base64.urlsafe_b64decode(parts[1])
/usr/local/lib/python3.11/base64.py:134: in urlsafe_b64decode
    return b64decode(s)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

s = b'eyJzdWIiOiIxMjM0NSIsIm5hbWUiOiJBbm5hIiwiaWF0IjoxNzAwMDAwMDAwfQ', altchars = None
validate = False

    def b64decode(s, altchars=None, validate=False):
        s = _bytes_from_decode_data(s)
        if altchars is not None:
            altchars = _bytes_from_decode_data(altchars)
            assert len(altchars) == 2, repr(altchars)
            s = s.translate(bytes.maketrans(altchars, b'+/'))
>       return binascii.a2b_base64(s, strict_mode=validate)
E       binascii.Error: Incorrect padding

/usr/local/lib/python3.11/base64.py:88: Error
=========================== short test summary info ============================
FAILED tests/test_decode.py::test_decode_claims_from_idp - binascii.Error: Incorrect padding
========================= 1 failed, 18 passed in 0.06s =========================
""", "binascii.Error", ["src/jwtlite/decode.py"],
"JWT segments are base64url without '=' padding (RFC 7515), and urlsafe_b64decode rejects unpadded input. Added a _b64url_decode helper that appends '=' * (-len(s) % 4) before decoding and used it for header, payload and signature.",
"pytest passed with exit code 0 (19 passed)",
"""--- a/src/jwtlite/decode.py
+++ b/src/jwtlite/decode.py
@@ -5,15 +5,20 @@ import json
 from .errors import MalformedToken
 
 
+def _b64url_decode(segment):
+    segment += "=" * (-len(segment) % 4)
+    return base64.urlsafe_b64decode(segment)
+
+
 def decode_unverified(token):
     parts = token.split(".")
     if len(parts) != 3:
         raise MalformedToken("expected 3 segments")
-    header = json.loads(base64.urlsafe_b64decode(parts[0]))
-    payload = base64.urlsafe_b64decode(parts[1])
+    header = json.loads(_b64url_decode(parts[0]))
+    payload = _b64url_decode(parts[1])
     return {"header": header, "claims": json.loads(payload)}
""")

R("r-b64-2", "webpushkeys", F, """E...
======================================================================
ERROR: test_load_vapid_public_key (tests.test_keys.VapidKeyTests.test_load_vapid_public_key)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/srv/webpushkeys/tests/test_keys.py", line 15, in test_load_vapid_public_key
    key = load_public_key(self.browser_key)
          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/srv/webpushkeys/webpushkeys/keys.py", line 22, in load_public_key
    raw = base64.urlsafe_b64decode(encoded)
          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.12/base64.py", line 134, in urlsafe_b64decode
    return b64decode(s)
           ^^^^^^^^^^^^
  File "/usr/lib/python3.12/base64.py", line 88, in b64decode
    return binascii.a2b_base64(s, strict_mode=validate)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
binascii.Error: Incorrect padding

----------------------------------------------------------------------
Ran 4 tests in 0.003s

FAILED (errors=1)
""", "binascii.Error", ["webpushkeys/keys.py"],
"Browsers hand out the p256dh key as unpadded base64url (87 chars), which urlsafe_b64decode refuses. load_public_key now restores the padding before decoding and checks the decoded key is 65 bytes.",
"python -m unittest passed (OK, 4 tests)",
"""--- a/webpushkeys/keys.py
+++ b/webpushkeys/keys.py
@@ -19,7 +19,10 @@ def load_public_key(encoded):
     \"\"\"Decode a browser subscription p256dh key.\"\"\"
-    raw = base64.urlsafe_b64decode(encoded)
+    padded = encoded + "=" * (-len(encoded) % 4)
+    raw = base64.urlsafe_b64decode(padded)
+    if len(raw) != 65:
+        raise ValueError(f"expected 65-byte uncompressed point, got {len(raw)}")
     return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
""")

Q("q-b64-1", "oidcclient", F, hdr("/home/dev/oidcclient", 24, plugins="asyncio-0.21.1, respx-0.20.2") + """
tests/test_callback.py ...........F............                          [100%]

=================================== FAILURES ===================================
________________________ test_callback_extracts_email __________________________

fake_idp = <FakeIdP issuer='https://login.test'>

    async def test_callback_extracts_email(fake_idp):
        code = fake_idp.issue_code(email="ana@example.org", nonce="n-123")
>       session = await handle_callback(fake_idp.client_config, code=code, nonce="n-123")

tests/test_callback.py:81: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/oidcclient/callback.py:44: in handle_callback
    claims = parse_id_token(tokens["id_token"])
src/oidcclient/tokens.py:12: in parse_id_token
    body = base64.urlsafe_b64decode(token.split(".")[1])
/usr/lib/python3.11/base64.py:134: in urlsafe_b64decode
    return b64decode(s)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

s = b'eyJpc3MiOiJodHRwczovL2xvZ2luLnRlc3QiLCJlbWFpbCI6ImFuYUBleGFtcGxlLm9yZyIsIm5vbmNlIjoibi0xMjMifQ'
altchars = None, validate = False

    def b64decode(s, altchars=None, validate=False):
        s = _bytes_from_decode_data(s)
        if altchars is not None:
            altchars = _bytes_from_decode_data(altchars)
            assert len(altchars) == 2, repr(altchars)
            s = s.translate(bytes.maketrans(altchars, b'+/'))
>       return binascii.a2b_base64(s, strict_mode=validate)
E       binascii.Error: Incorrect padding

/usr/lib/python3.11/base64.py:88: Error
=========================== short test summary info ============================
FAILED tests/test_callback.py::test_callback_extracts_email - binascii.Error: Incorrect padding
========================= 1 failed, 23 passed in 0.35s =========================
""", "binascii.Error")

Q("q-b64-2", "dataurl", F, hdr("/home/ci/dataurl", 12) + """
tests/test_parse.py ....F.......                                         [100%]

=================================== FAILURES ===================================
_____________________ test_parse_png_from_browser_canvas _______________________

    def test_parse_png_from_browser_canvas():
        url = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg"
>       mime, data = parse_data_url(url)

tests/test_parse.py:40: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

url = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg'

    def parse_data_url(url):
        header, _, payload = url.partition(",")
        mime = header[5:].split(";")[0] or "text/plain"
        if header.endswith(";base64"):
            try:
                return mime, base64.b64decode(payload)
            except binascii.Error as exc:
>               raise InvalidDataURL("malformed base64 payload") from exc
E               dataurl.errors.InvalidDataURL: malformed base64 payload

src/dataurl/parse.py:19: InvalidDataURL
=========================== short test summary info ============================
FAILED tests/test_parse.py::test_parse_png_from_browser_canvas - dataurl.errors.InvalidDataURL: malformed base64 payload
========================= 1 failed, 11 passed in 0.02s =========================
""", "InvalidDataURL")

Q("q-b64-3", "cursorpage", F, hdr("/srv/cursorpage", 7, verbose=True, configfile="pytest.ini", py="3.12.1", pytest="8.0.0", pluggy="1.4.0") + """
tests/test_cursor.py::test_cursor_roundtrip[page-1] PASSED               [ 14%]
tests/test_cursor.py::test_cursor_roundtrip[page-2] FAILED               [ 28%]
tests/test_cursor.py::test_cursor_roundtrip[page-10] FAILED              [ 42%]
tests/test_cursor.py::test_cursor_is_opaque PASSED                       [ 57%]
tests/test_cursor.py::test_cursor_url_safe PASSED                        [ 71%]
tests/test_cursor.py::test_bad_cursor_rejected PASSED                    [ 85%]
tests/test_cursor.py::test_first_page_no_cursor PASSED                   [100%]

=================================== FAILURES ===================================
________________________ test_cursor_roundtrip[page-2] _________________________

tests/test_cursor.py:9: in test_cursor_roundtrip
    assert decode_cursor(cur) == {"after": after_id}
src/cursorpage/cursor.py:14: in decode_cursor
    return json.loads(base64.urlsafe_b64decode(cursor))
/usr/lib/python3.12/base64.py:134: in urlsafe_b64decode
    return b64decode(s)
/usr/lib/python3.12/base64.py:88: in b64decode
    return binascii.a2b_base64(s, strict_mode=validate)
E   binascii.Error: Incorrect padding
________________________ test_cursor_roundtrip[page-10] ________________________

tests/test_cursor.py:9: in test_cursor_roundtrip
    assert decode_cursor(cur) == {"after": after_id}
src/cursorpage/cursor.py:14: in decode_cursor
    return json.loads(base64.urlsafe_b64decode(cursor))
/usr/lib/python3.12/base64.py:134: in urlsafe_b64decode
    return b64decode(s)
/usr/lib/python3.12/base64.py:88: in b64decode
    return binascii.a2b_base64(s, strict_mode=validate)
E   binascii.Error: Incorrect padding
=========================== short test summary info ============================
FAILED tests/test_cursor.py::test_cursor_roundtrip[page-2] - binascii.Error: Incorrect padding
FAILED tests/test_cursor.py::test_cursor_roundtrip[page-10] - binascii.Error: Incorrect padding
========================= 2 failed, 5 passed in 0.02s ==========================
""", "binascii.Error")

Q("q-b64-4", "kubesecrets", F, colorize(hdr("/home/ci/kubesecrets", 9) + """
tests/test_render.py ..F......                                           [100%]

=================================== FAILURES ===================================
______________________ test_decode_secret_from_manifest ________________________

manifest = {'apiVersion': 'v1', 'data': {'password': 'aHVudGVyMjI', 'user': 'YWRtaW4='}, 'kind': 'Secret', 'metadata': {'name': 'db-creds'}}

    def test_decode_secret_from_manifest(manifest):
        values = decode_secret(manifest)
>       assert values == {"user": "admin", "password": "hunter22"}
E       AssertionError: assert {'password': None, 'user': 'admin'} == {'password': 'hunter22', 'user': 'admin'}
E         Common items:
E         {'user': 'admin'}
E         Differing items:
E         {'password': None} != {'password': 'hunter22'}
E         Use -v to get more diff

tests/test_render.py:23: AssertionError
=========================== short test summary info ============================
FAILED tests/test_render.py::test_decode_secret_from_manifest - AssertionError: assert {'password': None, 'user': 'admin'} == {'password': '...
========================= 1 failed, 8 passed in 0.04s ==========================
"""), "AssertionError")

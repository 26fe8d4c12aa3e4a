from common import R, Q, hdr, colorize
F = "http-status-threshold-boundary"

R("r-hst-1", "webhookr", F, hdr("/home/ci/webhookr", 16, plugins="httpx-0.28.0, anyio-4.2.0") + """
tests/test_deliver.py ......F.........                                   [100%]

=================================== FAILURES ===================================
____________________ test_bad_request_marks_delivery_failed ____________________

httpx_mock = <pytest_httpx._httpx_mock.HTTPXMock object at 0x7f7e0a3b9d50>

    def test_bad_request_marks_delivery_failed(httpx_mock):
        httpx_mock.add_response(url="https://hooks.test/in", status_code=400,
                                json={"error": "missing field 'event'"})
>       with pytest.raises(DeliveryFailed):
E       Failed: DID NOT RAISE <class 'webhookr.errors.DeliveryFailed'>

tests/test_deliver.py:61: Failed
=========================== short test summary info ============================
FAILED tests/test_deliver.py::test_bad_request_marks_delivery_failed - Failed: DID NOT RAISE <class 'webhookr.errors.DeliveryFailed'>
========================= 1 failed, 15 passed in 0.18s =========================
""", "Failed", ["src/webhookr/deliver.py"],
"deliver() only raised DeliveryFailed when `resp.status_code > 400`, so a 400 Bad Request fell through as a successful delivery. Changed the check to `>= 400` (and use resp.is_error for clarity) so every 4xx/5xx response fails the delivery.",
"pytest passed with exit code 0 (16 passed)",
"""--- a/src/webhookr/deliver.py
+++ b/src/webhookr/deliver.py
@@ -37,7 +37,7 @@ def deliver(client, hook, payload):
     resp = client.post(hook.url, json=payload, timeout=hook.timeout)
-    if resp.status_code > 400:
+    if resp.status_code >= 400:
         raise DeliveryFailed(hook.url, resp.status_code, resp.text[:200])
     return Delivery(hook.id, resp.status_code)
""")

R("r-hst-2", "statuspage", F, hdr("/srv/statuspage", 11, py="3.12.3", pytest="8.2.1", pluggy="1.5.0") + """
tests/test_classify.py ..F........                                       [100%]

=================================== FAILURES ===================================
___________________________ test_500_counts_as_down ____________________________

    def test_500_counts_as_down():
        probe = ProbeResult(url="https://api.example.org/health", status=500, latency_ms=80)
>       assert classify(probe) == "down"
E       AssertionError: assert 'degraded' == 'down'
E         - down
E         + degraded

tests/test_classify.py:19: AssertionError
=========================== short test summary info ============================
FAILED tests/test_classify.py::test_500_counts_as_down - AssertionError: assert 'degraded' == 'down'
========================= 1 failed, 10 passed in 0.02s =========================
""", "AssertionError", ["src/statuspage/classify.py"],
"classify() used `status > 500` for the server-error bucket, which left a plain 500 in the 'degraded' branch meant for 4xx and slow responses. Use `status >= 500` so the boundary code belongs to the 5xx class.",
"pytest passed with exit code 0 (11 passed)",
"""--- a/src/statuspage/classify.py
+++ b/src/statuspage/classify.py
@@ -8,9 +8,9 @@ SLOW_MS = 1500
 def classify(probe):
     if probe.status is None:
         return "down"
-    if probe.status > 500:
+    if probe.status >= 500:
         return "down"
     if probe.status >= 400 or probe.latency_ms > SLOW_MS:
         return "degraded"
     return "up"
""")

Q("q-hst-1", "crawlbee", F, hdr("/home/dev/crawlbee", 14, plugins="responses-0.24.1") + """
tests/test_fetch.py .....F........                                       [100%]

=================================== FAILURES ===================================
_______________________ test_fetch_reports_client_error ________________________

    @responses.activate
    def test_fetch_reports_client_error():
        responses.get("https://shop.test/api/items?page=1", status=400,
                      body="<html><body>Bad Request</body></html>")
>       result = fetch_page("https://shop.test/api/items", page=1)

tests/test_fetch.py:48: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/crawlbee/fetch.py:33: in fetch_page
    return Page(items=resp.json()["items"], status=resp.status_code)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <Response [400]>, kwargs = {}

    def json(self, **kwargs):
        r\"\"\"Returns the json-encoded content of a response, if any.
    
        :param \\*\\*kwargs: Optional arguments that ``json.loads`` takes.
        :raises requests.exceptions.JSONDecodeError: If the response body does not
            contain valid json.
        \"\"\"
    
        if not self.encoding and self.content and len(self.content) > 3:
            # No encoding set. JSON RFC 4627 section 3 states we should expect
            # UTF-8, -16 or -32. Detect which one to use; If the detection or
            # decoding fails, fall back to `self.text` (using charset_normalizer to make
            # a best guess).
            encoding = guess_json_utf(self.content)
            if encoding is not None:
                try:
                    return complexjson.loads(self.content.decode(encoding), **kwargs)
                except UnicodeDecodeError:
                    # Wrong UTF codec detected; usually because it's not UTF-8
                    # but some other 8-bit codec.  This is an RFC violation,
                    # and the server didn't bother to tell us what codec *was*
                    # used.
                    pass
                except JSONDecodeError as e:
                    raise RequestsJSONDecodeError(e.msg, e.doc, e.pos)
    
        try:
            return complexjson.loads(self.text, **kwargs)
        except JSONDecodeError as e:
            # Catch JSON-related errors and raise as requests.JSONDecodeError
            # This aliases json.JSONDecodeError and simplejson.JSONDecodeError
>           raise RequestsJSONDecodeError(e.msg, e.doc, e.pos)
E           requests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)

/usr/lib/python3/dist-packages/requests/models.py:975: JSONDecodeError
=========================== short test summary info ============================
FAILED tests/test_fetch.py::test_fetch_reports_client_error - requests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
========================= 1 failed, 13 passed in 0.27s =========================
""", "JSONDecodeError")

Q("q-hst-2", "payhook", F, """...F..
======================================================================
FAIL: test_retries_on_500 (tests.test_retry.RetryTests.test_retries_on_500)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/usr/lib/python3.11/unittest/mock.py", line 1375, in patched
    return func(*newargs, **newkeywargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/src/payhook/tests/test_retry.py", line 38, in test_retries_on_500
    self.assertEqual(post.call_count, 3)
AssertionError: 1 != 3

----------------------------------------------------------------------
Ran 6 tests in 0.008s

FAILED (failures=1)
""", "AssertionError")

Q("q-hst-3", "apiclient", F, hdr("/home/ci/apiclient", 12, verbose=True, plugins="requests-mock-1.11.0") + """
tests/test_errors.py::test_raises_for_client_errors[400] FAILED          [  8%]
tests/test_errors.py::test_raises_for_client_errors[401] PASSED          [ 16%]
tests/test_errors.py::test_raises_for_client_errors[404] PASSED          [ 25%]
tests/test_errors.py::test_raises_for_client_errors[422] PASSED          [ 33%]
tests/test_errors.py::test_raises_for_server_errors[500] PASSED          [ 41%]
tests/test_errors.py::test_raises_for_server_errors[503] PASSED          [ 50%]
tests/test_errors.py::test_ok_statuses[200] PASSED                       [ 58%]
tests/test_errors.py::test_ok_statuses[201] PASSED                       [ 66%]
tests/test_errors.py::test_ok_statuses[204] PASSED                       [ 75%]
tests/test_client.py::test_base_url PASSED                               [ 83%]
tests/test_client.py::test_auth_header PASSED                            [ 91%]
tests/test_client.py::test_user_agent PASSED                             [100%]

=================================== FAILURES ===================================
______________________ test_raises_for_client_errors[400] ______________________

requests_mock = <requests_mock.mocker.Mocker object at 0x7fb1d8a3e2c0>
status = 400

    @pytest.mark.parametrize("status", [400, 401, 404, 422])
    def test_raises_for_client_errors(requests_mock, status):
        requests_mock.get("https://api.test/v1/widgets", status_code=status)
        client = Client("https://api.test/v1")
>       with pytest.raises(ClientError):
E       Failed: DID NOT RAISE <class 'apiclient.errors.ClientError'>

tests/test_errors.py:14: Failed
=========================== short test summary info ============================
FAILED tests/test_errors.py::test_raises_for_client_errors[400] - Failed: DID NOT RAISE <class 'apiclient.errors.ClientError'>
========================= 1 failed, 11 passed in 0.14s =========================
""", "Failed")

Q("q-hst-4", "uplinkcheck", F, colorize(hdr("/opt/uplinkcheck", 9) + """
tests/test_monitor.py ....F....                                          [100%]

=================================== FAILURES ===================================
_______________________ test_monitor_marks_400_unhealthy _______________________

fake_target = FakeTarget(url='http://10.0.0.7:8080/ping', responses=[200, 200, 400])

    def test_monitor_marks_400_unhealthy(fake_target):
        mon = Monitor(fake_target, threshold=1)
        for _ in range(3):
            mon.tick()
>       assert mon.state == "unhealthy"
E       AssertionError: assert 'healthy' == 'unhealthy'
E         - unhealthy
E         ? --
E         + healthy

tests/test_monitor.py:52: AssertionError
=========================== short test summary info ============================
FAILED tests/test_monitor.py::test_monitor_marks_400_unhealthy - AssertionError: assert 'healthy' == 'unhealthy'
========================= 1 failed, 8 passed in 0.03s ==========================
"""), "AssertionError")

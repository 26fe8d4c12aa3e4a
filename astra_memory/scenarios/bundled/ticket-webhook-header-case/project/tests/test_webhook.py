import hashlib
import hmac

from app.headers import header_value
from app.webhook import event_kind, signature_ok

SECRET = b"s3cret"
BODY = b'{"ticket": 1042, "status": "open"}'


def test_lookup_ignores_header_case():
    assert header_value({"content-type": "application/json"}, "Content-Type") == "application/json"


def test_lower_case_signature_header_is_accepted():
    signature = hmac.new(SECRET, BODY, hashlib.sha256).hexdigest()
    assert signature_ok(SECRET, BODY, {"x-queue-signature": signature}) is True


def test_event_kind_from_lower_case_header():
    assert event_kind({"x-queue-event": "ticket.created"}) == "ticket.created"


def test_event_kind_from_upper_case_header():
    assert event_kind({"X-QUEUE-EVENT": "ticket.closed"}) == "ticket.closed"

from app.events import event_from_headers
from app.fields import normalize_field_name


def test_audit_log_normalises_to_snake_case():
    assert normalize_field_name("Audit-Log") == "audit_log"


def test_surrounding_whitespace_is_ignored():
    assert normalize_field_name("  Request-Id ") == "request_id"


def test_event_keeps_audit_log_header():
    event = event_from_headers({"Audit-Log": "enabled", "Actor": "ops"})
    assert event == {"audit_log": "enabled", "actor": "ops"}


def test_event_keeps_request_id_header():
    event = event_from_headers({"Request-Id": "r-42", "Accept": "text/html"})
    assert event == {"request_id": "r-42"}

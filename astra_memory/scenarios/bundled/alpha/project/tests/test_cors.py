from app.cors import CorsPolicy
from app.settings import allowed_origins_from_env, parse_allowed_origins


def test_parse_trims_space_after_comma():
    assert parse_allowed_origins("https://app.example.com, https://admin.example.com") == [
        "https://app.example.com",
        "https://admin.example.com",
    ]


def test_second_origin_gets_allow_origin_header():
    policy = CorsPolicy("https://app.example.com, https://admin.example.com")
    headers = policy.headers_for("https://admin.example.com")
    assert headers.get("Access-Control-Allow-Origin") == "https://admin.example.com"


def test_env_origins_with_tabs_and_trailing_spaces():
    env = {"ALLOWED_ORIGINS": " https://app.example.com ,\thttps://docs.example.com "}
    assert allowed_origins_from_env(env) == ["https://app.example.com", "https://docs.example.com"]


def test_blank_entries_are_dropped():
    assert parse_allowed_origins("https://app.example.com, ,https://admin.example.com") == [
        "https://app.example.com",
        "https://admin.example.com",
    ]

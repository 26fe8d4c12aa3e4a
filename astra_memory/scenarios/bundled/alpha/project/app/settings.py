"""Settings read from the environment of the web service."""

import os


def parse_allowed_origins(raw: str) -> list[str]:
    """Split the ALLOWED_ORIGINS setting (comma-separated) into a list of origins."""
    if not raw:
        return []
    return [origin for origin in raw.split(",") if origin]


def allowed_origins_from_env(environ=None) -> list[str]:
    """Read ALLOWED_ORIGINS from the environment."""
    environ = os.environ if environ is None else environ
    return parse_allowed_origins(environ.get("ALLOWED_ORIGINS", ""))

"""CORS response headers for the web service."""

from app.settings import parse_allowed_origins


class CorsPolicy:
    """Decides which cross-origin requests get an Access-Control-Allow-Origin header."""

    def __init__(self, allowed_origins: str):
        self.allowed = parse_allowed_origins(allowed_origins)

    def headers_for(self, origin: str) -> dict[str, str]:
        if origin in self.allowed:
            return {"Access-Control-Allow-Origin": origin, "Vary": "Origin"}
        return {}

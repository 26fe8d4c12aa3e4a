"""Registration of forum members."""

from app.names import canonical_username, is_acceptable


class Registry:
    def __init__(self):
        self._members: dict[str, str] = {}

    def register(self, name: str) -> bool:
        """Register a display name; False if it is unacceptable or already taken."""
        key = canonical_username(name)
        if not is_acceptable(name) or key in self._members:
            return False
        self._members[key] = name.strip()
        return True

    def display_name(self, name: str) -> str | None:
        """Display name of the member registered under this name, if any."""
        return self._members.get(canonical_username(name))

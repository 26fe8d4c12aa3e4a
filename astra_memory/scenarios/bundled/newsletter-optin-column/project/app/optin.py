"""The opt_in column of subscriber exports, filled in by various sign-up forms."""


def parse_opt_in(value: str | None) -> bool:
    """True if the subscriber agreed to receive the newsletter."""
    answer = (value or "").strip()
    return bool(answer) and answer.lower() != "false"


def consent_label(value: str | None) -> str:
    """Label shown in the admin list of imported subscribers."""
    return "subscribed" if parse_opt_in(value) else "not subscribed"

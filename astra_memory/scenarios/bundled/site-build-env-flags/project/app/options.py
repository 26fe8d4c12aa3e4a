"""Build options of the static site generator, read from environment variables."""

import os

DEFAULTS = {"SITE_MINIFY": True, "SITE_DRAFTS": False, "SITE_SITEMAP": True}


def env_flag(name: str, environ=None) -> bool:
    """Value of an on/off build option; unset options use their default."""
    environ = os.environ if environ is None else environ
    if name not in environ:
        return DEFAULTS.get(name, False)
    return bool(environ[name].strip())

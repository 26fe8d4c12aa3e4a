"""The sequence of steps run by a site build."""

from app.options import env_flag


def build_plan(environ: dict[str, str]) -> list[str]:
    """Steps of a build, in the order they run."""
    steps = ["render"]
    if env_flag("SITE_DRAFTS", environ):
        steps.append("render-drafts")
    if env_flag("SITE_MINIFY", environ):
        steps.append("minify")
    if env_flag("SITE_SITEMAP", environ):
        steps.append("sitemap")
    return steps

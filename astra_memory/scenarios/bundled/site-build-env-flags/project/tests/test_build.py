from app.build import build_plan
from app.options import env_flag


def test_false_string_disables_flag():
    assert env_flag("SITE_MINIFY", {"SITE_MINIFY": "false"}) is False


def test_zero_disables_flag():
    assert env_flag("SITE_DRAFTS", {"SITE_DRAFTS": "0"}) is False


def test_plan_without_minify_and_sitemap():
    assert build_plan({"SITE_SITEMAP": "no", "SITE_MINIFY": "Off"}) == ["render"]


def test_drafts_not_rendered_when_false():
    assert build_plan({"SITE_DRAFTS": "False"}) == ["render", "minify", "sitemap"]

"""A model server URL that carries a key (issue 32, outside case 14).

``--base-url http://host/v1?key=SECRET`` or ``http://user:SECRET@host/v1``: the secret is in no
checkpoint, event, report, ledger or error message, whatever the server answers (here: it echoes the
path it was asked for, key and all, in its 404).
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from astra_memory.cli.app import app
from astra_memory.context import Context, recorded_knobs
from tests.openai_server import OpenAIServer
from tests.test_live_wire import ALPHA, MODEL, api_key, files_containing, run_alpha  # noqa: F401 (fixture)

pytestmark = pytest.mark.live_wire
SECRET = "Kq7" + "ZxP2mVn8Lw4Rt"


def _urls(server: OpenAIServer) -> list[str]:
    host = server.base_url.split("://", 1)[1]
    return [f"{server.base_url}?key={SECRET}", f"http://ada:{SECRET}@{host}"]


@pytest.mark.parametrize("form", [0, 1], ids=["query key", "user:password"])
def test_a_session_on_a_url_with_a_key_keeps_the_key_nowhere(settings, api_key, form):  # noqa: F811
    with OpenAIServer(ALPHA) as server:
        url = _urls(server)[form]
        final, task, _ = run_alpha(settings, server, f"url-key-{form}", base_url=url)
    assert final["status"] != "fixed"  # the server could not be used with that URL: the run says why
    assert SECRET not in str(final.get("reason")), final.get("reason")
    assert files_containing(settings.home, SECRET) == []  # checkpoints, events, report, ledger, transcript


def test_a_url_with_a_key_is_not_recorded_for_resume():
    assert recorded_knobs(Context(base_url=f"http://h/v1?key={SECRET}"))["base_url"] is None
    assert recorded_knobs(Context(base_url="http://h/v1?api-version=2024-06-01"))["base_url"] is not None


@pytest.mark.parametrize("url", [f"http://127.0.0.1:1/v1?key={SECRET}", f"http://ada:{SECRET}@127.0.0.1:1/v1"],
                         ids=["query key", "user:password"])
def test_the_cli_error_for_an_unreachable_url_names_it_without_its_key(isolated_home, api_key, url):  # noqa: F811
    result = CliRunner().invoke(app, ["run", "alpha", "--model", MODEL, "--base-url", url, "--approve-live-cost"])
    assert result.exit_code == 2 and "cannot reach the model server" in result.stderr, result.output
    assert SECRET not in result.output and SECRET not in result.stderr

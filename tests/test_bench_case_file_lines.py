"""A bench's case file comes from anywhere (``--cases FILE``): a line of binary bytes or one nested
too deep for json's decoder is a bad line named with its number, exit 2, never a traceback, as for
``memory import`` (one reader, astra_memory/json_lines.py; outside round 10 case 08: both were an
exit-1 traceback, UnicodeDecodeError and RecursionError, in ``bench retrieval`` and ``bench evidence``)."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

LINES = {
    "binary": bytes(range(0x80, 0x100)) * 8 + b"\n",
    "deep": b"[" * 100_000 + b"]" * 100_000 + b"\n",
}
SAID = {"binary": "not UTF-8 text", "deep": "nested too deep"}


@pytest.mark.parametrize("bench", ["retrieval", "evidence"])
@pytest.mark.parametrize("kind", sorted(LINES))
def test_a_bad_line_of_a_case_file_is_named_exit_2(tmp_path, bench, kind):
    cases = tmp_path / "cases.jsonl"
    cases.write_bytes(LINES[kind])
    result = run_cli("bench", bench, "--cases", str(cases), "--out", str(tmp_path / "out"))
    assert result.returncode == 2, (result.stdout, result.stderr[-2000:])
    assert "Traceback" not in result.stderr
    assert f"{cases}:1: {SAID[kind]}" in result.stderr

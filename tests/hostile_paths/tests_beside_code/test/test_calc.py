import json
from pathlib import Path

from app.calc import add

CASES = json.loads((Path(__file__).resolve().parent.parent / "golden" / "cases.json").read_text())


def test_add():
    for a, b, total in CASES:
        assert add(a, b) == total

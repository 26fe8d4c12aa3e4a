"""Every file the code and the docs point at exists (issue 34 item 3): a module pointer in a comment,
a docstring, a doc page or a bundled scenario (``stores/trust.py``, ``astra_memory/nodes/tools.py``,
``docs/memory.md``, ``scripts/setup.sh``) names a file of this checkout, so a rename cannot leave a
stale one behind."""

from __future__ import annotations

import re
import subprocess

from tests.conftest import ROOT

PACKAGE = ROOT / "astra_memory"
FOLDERS = sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and not p.name.startswith("__"))
POINTER = re.compile(r"(?<![\w/.-])((?:astra_memory/)?(?:%s)/[\w/-]+\.py|docs/[\w/-]+\.md|scripts/[\w/-]+\.(?:sh|py))"
                     % "|".join(FOLDERS))
DATA = ("evals/", "tests/", "astra_memory/bench/cases/")  # test ids of made-up projects, not pointers


def _pointers() -> list[tuple[str, int, str]]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    found = []
    for rel in listed.splitlines():
        path = ROOT / rel
        if rel.startswith(DATA) or not path.is_file() or path.suffix not in {".py", ".md", ".toml", ".sh", ".txt"}:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in POINTER.finditer(text):
            found.append((rel, text.count("\n", 0, match.start()) + 1, match.group(1)))
    return found


def test_every_file_pointer_names_a_file_of_the_checkout():
    pointers = _pointers()
    assert len(pointers) > 200  # the check reads what it should
    stale = [f"{rel}:{line}: {target}" for rel, line, target in pointers
             if not (ROOT / target).exists() and not (PACKAGE / target).exists()]
    assert stale == []

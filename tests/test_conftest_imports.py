"""A module a ``conftest.py`` (or a project pytest plugin) takes hooks or fixtures from by importing
them is test machinery: pytest registers the conftest's whole namespace (outside round 10 case 02:
the root conftest's ``from testing_support import *`` and a "fix" that gave ``testing_support.py`` a
``pytest_collection_modifyitems`` making every test a no-op was stored as confirmed by learn and by
a live session, calc.add still wrong). Real files; the learn test runs a real pytest on a real git
history."""

from __future__ import annotations

import pytest

from astra_memory.workspace.machinery_refs import machinery_files
from astra_memory.workspace.protected import ProtectedPaths
from tests.test_learn_round6 import ADD_TEST, BASE, BUGGY, history, judge

NO_OP = "def pytest_collection_modifyitems(session, config, items):\n    for item in items:\n        item.runtest = lambda: None\n"
FIXTURE = "import pytest\n\n\n@pytest.fixture(autouse=True)\ndef clean_env():\n    yield\n"

FORMS = [
    ("star", {"conftest.py": "from testing_support import *  # noqa\n", "testing_support.py": "X = 1\n"},
     "testing_support.py"),
    ("hook name", {"conftest.py": "from helpers.hooks import pytest_runtest_setup\n",
                   "helpers/__init__.py": "", "helpers/hooks.py": "def pytest_runtest_setup(item):\n    pass\n"},
     "helpers/hooks.py"),
    ("hook bound to an attribute", {"conftest.py": "import support\n\npytest_runtest_call = support.call\n",
                                    "support.py": "def call(item):\n    pass\n"}, "support.py"),
    ("fixture by name", {"tests/conftest.py": "from tests.fixtures import clean_env  # noqa\n",
                         "tests/__init__.py": "", "tests/fixtures.py": FIXTURE}, "tests/fixtures.py"),
    ("relative, beside the conftest", {"tests/conftest.py": "from .shared import *\n", "tests/__init__.py": "",
                                       "tests/shared.py": "Y = 2\n"}, "tests/shared.py"),
    ("transitive", {"conftest.py": "from a import *\n", "a.py": "from b import *\n", "b.py": "Z = 3\n"}, "b.py"),
    ("src layout", {"conftest.py": "from app.testing import *\n", "src/app/__init__.py": "",
                    "src/app/testing.py": "W = 4\n"}, "src/app/testing.py"),
    ("a hook that calls a plainly imported module", {
        "conftest.py": "import support\n\n\ndef pytest_runtest_makereport(item, call):\n    return support.report(item, call)\n",
        "support.py": "def report(item, call):\n    return None\n"}, "support.py"),
    ("a hook that calls a name imported from a module", {
        "tests/conftest.py": "from tests.decide import outcome\n\n\ndef pytest_collection_modifyitems(items):\n    outcome(items)\n",
        "tests/__init__.py": "", "tests/decide.py": "def outcome(items):\n    pass\n"}, "tests/decide.py"),
    ("a plugin's own star import", {"pytest.ini": "[pytest]\naddopts = -p plug\n", "plug.py": "from more import *\n",
                                    "more.py": "V = 5\n"}, "more.py"),
]


@pytest.mark.parametrize(("files", "source"), [(f, s) for _, f, s in FORMS], ids=[n for n, _, _ in FORMS])
def test_a_module_a_conftest_or_plugin_takes_hooks_or_fixtures_from_is_machinery(tmp_path, files, source):
    for rel, text in {**files, "calc.py": BUGGY}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert source in machinery_files(tmp_path, "python -m pytest -q")
    rule = ProtectedPaths.of(["tests"], workspace=tmp_path, test_command="python -m pytest -q")
    assert source in rule
    assert "calc.py" not in rule


def test_the_code_a_conftest_imports_to_build_its_fixtures_stays_source(tmp_path):
    # a plain import, or a helper that is not a fixture nor a hook: how conftests use the code under test
    (tmp_path / "conftest.py").write_text("import pytest\nimport calc\nfrom app import make_app\n\n\n"
                                          "@pytest.fixture\ndef app():\n    return make_app(calc.add)\n")
    (tmp_path / "calc.py").write_text(BUGGY)
    (tmp_path / "app.py").write_text("def make_app(f):\n    return f\n")
    assert machinery_files(tmp_path, "python -m pytest -q") == ()


def test_a_commit_that_gives_a_star_imported_module_a_hook_is_refused(tmp_path):
    base = ("initial", {**BASE[1], "conftest.py": "from testing_support import *  # noqa\n",
                        "testing_support.py": "def numbers():\n    return [1, 2]\n"})
    shas = history(tmp_path / "p", [base, ("Fix add", {"testing_support.py": "def numbers():\n    return [1, 2]\n\n\n" + NO_OP,
                                                       "tests/test_add.py": ADD_TEST})])
    verdict = judge(tmp_path / "p", shas[1], tmp_path)
    assert verdict.verdict == "refused", verdict
    assert "testing_support.py is test machinery" in verdict.reason

"""Library table: directory under libs/, and the test command as the project configures it."""
P = ["python", "-m", "pytest"]
LIBS = {
    "addict":      ("addict-2.4.0",      P + ["test_addict.py"]),
    "iso8601":     ("iso8601-2.1.0",     P + ["iso8601"]),
    "munch":       ("munch-4.0.0",       P),   # setup.cfg testpaths = tests
    "ordered-set": ("ordered-set-4.1.0", P),   # pytest.ini addopts: doctest-modules, doctest-glob README.md / *.py
    "pathspec":    ("pathspec-1.1.1",    P + ["tests"]),
    "pytimeparse": ("pytimeparse-1.1.10", P + ["pytimeparse/tests/testtimeparse.py", "pytimeparse/tests/testdayclock.py"]),
    "rfc3986":     ("rfc3986-2.0.0",     P + ["tests"]),
    "schema":      ("schema-0.7.8",      P + ["test_schema.py"]),
    "texttable":   ("texttable-1.7.2",   P + ["--cov-report=term-missing", "--cov=texttable", "tests.py"]),  # tox.ini
    "tinydb":      ("tinydb-4.9.0",      P + ["tests"]),
    "titlecase":   ("titlecase-2.4.1",   P + ["titlecase/tests.py"]),
    "uritemplate": ("uritemplate-4.2.0", P + ["tests"]),
    "voluptuous":  ("voluptuous-0.16.0", P),   # pyproject addopts: --doctest-glob=*.md -v, testpaths voluptuous/tests
    "xmltodict":   ("xmltodict-1.0.4",   P + ["tests"]),
}
VENV = {}

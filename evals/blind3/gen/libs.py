"""Library table: directory under libs/, and the test command as the project configures it."""
LIBS = {
    "boltons":        ("boltons-24.0.0",        ["python", "-m", "pytest", "--doctest-modules", "boltons", "tests"]),
    "cachetools":     ("cachetools-5.5.0",      ["python", "-m", "pytest", "--cov=cachetools"]),
    "humanize":       ("humanize-4.11.0",       ["python", "-m", "pytest"]),  # pyproject addopts: --color=yes
    "idna":           ("idna-3.10",             ["python", "-m", "pytest"]),
    "inflection":     ("inflection-0.5.1",      ["python", "-m", "pytest"]),
    "isodate":        ("isodate-0.7.2",         ["python", "-m", "pytest"]),
    "more-itertools": ("more-itertools-10.5.0", ["python", "-m", "pytest", "tests"]),
    "parse":          ("parse-1.20.2",          ["python", "-m", "pytest"]),
    "semver":         ("semver-3.0.2",          ["python", "-m", "pytest"]),  # setup.cfg addopts: cov, doctest
    "tabulate":       ("tabulate-0.9.0",        ["python", "-m", "pytest", "-v", "--doctest-modules", "--ignore", "benchmark.py"]),
    "text-unidecode": ("text-unidecode-1.3",    ["python", "-m", "pytest"]),
    "toolz":          ("toolz-1.0.0",           ["python", "-m", "pytest"]),
    "wcwidth":        ("wcwidth-0.2.13",        ["python", "-m", "pytest"]),  # tox.ini addopts: cov, --color=yes
    "webcolors":      ("webcolors-24.8.0",      ["python", "-m", "pytest"]),
}

# boltons 24.0.0 conftest uses pytest_ignore_collect(path, ...) which pytest>=8 rejects -> its own venv with pytest<8
VENV = {"boltons": "pytest7"}

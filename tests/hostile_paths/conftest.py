"""The projects below are sessions' workspaces (tests/test_protected_paths.py copies them), not
tests of this repository: their deliberately failing tests are never collected here."""

collect_ignore_glob = ["*"]

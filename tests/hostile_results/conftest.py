"""The projects below are sessions' workspaces (tests/test_pass_is_a_result.py and
tests/test_environment_snapshot.py copy them), not tests of this repository: their deliberately
failing tests are never collected here."""

collect_ignore_glob = ["*"]

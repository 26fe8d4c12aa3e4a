"""The confined workspace: file access that never leaves it, protected paths, the pre-session snapshot, diffs and replaying them."""

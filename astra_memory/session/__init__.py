"""Starting and resuming a session (the library API scripts call), its preflight checks, the demo."""

"""The `astra-memory` command: the app and its sub-apps, shared options, the approval prompt."""

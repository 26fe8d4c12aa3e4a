"""Opening the configured backends (checkpoints, memory, ledger), the memory alone, and copying memory between backends."""

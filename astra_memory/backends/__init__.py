"""Where the data lives: one package per memory backend (sqlite/, postgres/, actian/; their one interface:
base.py), the table of openers and the opening of checkpoints, memory and ledger together (open.py),
the memory alone (memory_only.py), and copying memory between backends (migrate.py)."""

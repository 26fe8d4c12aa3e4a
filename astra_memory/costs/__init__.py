"""The cost guard: prices and worst cases (prices.py), the durable ledger (ledger.py, ledger_postgres.py)."""

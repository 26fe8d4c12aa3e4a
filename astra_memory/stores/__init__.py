"""Fix memory: validated records of confirmed fixes on LangGraph's BaseStore (stores/memory.py ``FixMemory``).

The package imports nothing itself: a module that needs one rule (``stores.confidence``) does not load
the store and LangGraph with it.
"""

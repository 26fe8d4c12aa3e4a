"""Fix memory: validated records of confirmed fixes on LangGraph's BaseStore."""

from astra_memory.stores.memory import FixMemory, MemoryHit
from astra_memory.stores.record import FixRecord

__all__ = ["FixMemory", "FixRecord", "MemoryHit"]

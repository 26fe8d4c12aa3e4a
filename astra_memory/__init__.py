"""astra-codebase-memory: a LangGraph coding agent with a memory of confirmed fixes."""

__version__ = "0.1.0"

"""The tool contract offered to the model, and the read-only tools' implementations."""

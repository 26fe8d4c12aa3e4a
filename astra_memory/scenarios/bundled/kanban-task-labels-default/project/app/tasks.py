"""Cards on the kanban board."""


class Task:
    """A card with a title, a column and a set of labels."""

    def __init__(self, title: str, labels: list[str] = []):
        self.title = title
        self.labels = labels
        self.column = "todo"

    def tag(self, label: str) -> "Task":
        """Add a label unless the card already has it."""
        if label not in self.labels:
            self.labels.append(label)
        return self

    def move(self, column: str) -> None:
        self.column = column

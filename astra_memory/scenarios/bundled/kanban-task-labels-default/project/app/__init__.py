"""taskmint: a minimal kanban board for small teams."""

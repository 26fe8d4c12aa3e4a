"""panboard: recipe planner that builds a weekly shopping list."""

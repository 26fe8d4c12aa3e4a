"""Running the project's test command: its environment, step isolation, the process reaper, and reading its output into symptoms."""

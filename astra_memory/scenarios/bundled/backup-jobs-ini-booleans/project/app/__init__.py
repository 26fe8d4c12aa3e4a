"""vaultcron: scheduled file backups described in an INI file."""

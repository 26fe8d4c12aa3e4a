"""ledgerline: turns incoming audit events into stored records."""

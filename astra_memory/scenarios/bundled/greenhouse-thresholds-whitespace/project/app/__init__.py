"""leafwatch: temperature alarms for the zones of a greenhouse."""

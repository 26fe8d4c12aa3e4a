"""queuedesk: receives and routes webhooks from the helpdesk ticketing system."""

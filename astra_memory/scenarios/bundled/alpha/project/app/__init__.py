"""corsgate: a tiny web-service configuration and CORS layer."""

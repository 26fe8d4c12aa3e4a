"""Chat models: the scripted offline model and live OpenAI-compatible models."""

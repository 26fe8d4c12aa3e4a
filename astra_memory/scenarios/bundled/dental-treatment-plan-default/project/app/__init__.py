"""molarly: charting and treatment planning for a small dental practice."""

"""binkeeper: stock movements and daily reports for a small warehouse."""

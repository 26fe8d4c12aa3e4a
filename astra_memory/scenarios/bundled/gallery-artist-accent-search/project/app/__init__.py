"""canvasdex: catalogue and visitor search of a small art gallery."""

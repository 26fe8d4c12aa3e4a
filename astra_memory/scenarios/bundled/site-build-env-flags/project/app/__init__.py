"""pressleaf: a small static site generator for blogs."""

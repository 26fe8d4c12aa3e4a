"""shelfmark: imports book catalogues exported by partner libraries."""

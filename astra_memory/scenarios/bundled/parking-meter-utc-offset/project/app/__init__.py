"""kerbpark: billing of on-street parking sessions reported by meters."""

"""lumenbox: online photo albums with paged thumbnail views."""

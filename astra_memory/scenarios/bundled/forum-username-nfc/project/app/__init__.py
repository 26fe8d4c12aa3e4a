"""forumgate: sign-up and profiles of a community forum."""

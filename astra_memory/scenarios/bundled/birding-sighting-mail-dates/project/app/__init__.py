"""wingtally: a birding club's log of sightings that members report by e-mail."""

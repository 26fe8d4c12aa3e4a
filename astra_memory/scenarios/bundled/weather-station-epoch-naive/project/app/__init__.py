"""skyledger: collects and summarises readings from amateur weather stations."""

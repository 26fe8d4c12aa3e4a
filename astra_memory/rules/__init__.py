"""The agent's rules, as pure functions of state and context: the gates, the routers and the limits."""

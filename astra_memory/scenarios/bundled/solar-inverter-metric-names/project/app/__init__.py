"""sunflux: collects telemetry from the inverters of rooftop solar arrays."""

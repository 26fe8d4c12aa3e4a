"""crateflow: depot handling rules for parcels, driven by their label tags."""

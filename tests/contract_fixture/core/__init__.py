"""The fixture's core."""

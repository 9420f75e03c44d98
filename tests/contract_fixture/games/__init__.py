"""The fixture's games."""

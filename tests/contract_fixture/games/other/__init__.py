"""Another game."""

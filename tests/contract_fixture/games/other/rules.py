"""Another game's engine."""

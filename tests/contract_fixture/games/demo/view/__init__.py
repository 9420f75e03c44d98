"""The demo game's view."""

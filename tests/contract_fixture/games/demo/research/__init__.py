"""The demo game's research code."""

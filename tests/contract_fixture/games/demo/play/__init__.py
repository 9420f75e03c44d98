"""The demo game's players' code."""

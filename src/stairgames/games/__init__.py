"""One package per game; each registers itself with :mod:`stairgames.core.registry`."""

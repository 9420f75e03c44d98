"""The fixture's server."""

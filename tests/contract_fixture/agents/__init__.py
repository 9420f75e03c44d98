"""The fixture's players."""

"""The fixture server's matches."""

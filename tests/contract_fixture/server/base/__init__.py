"""The fixture server's bottom layer."""

"""The fixture server's lobby."""

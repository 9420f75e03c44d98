"""The chat of a match and of the lobby (above ``lobby``)."""

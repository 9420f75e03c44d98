"""People: players and their accounts and sessions, ratings (above ``base``)."""

"""Play: matches, seats, clocks, the referee, computer players, the hub of live matches
and its fan-out over server processes, card files (above ``people`` and ``base``)."""

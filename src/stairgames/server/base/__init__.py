"""The bottom layer of the server: errors, the database (``store``), the per-client
limits, logs and the settings; every other part of the server may import it, it imports
none of them (docs/architecture.md, "The server's layers")."""

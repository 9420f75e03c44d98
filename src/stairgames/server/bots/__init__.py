"""The Bot API's streams and actions: outside programs play over HTTP (docs/bots.md)."""

"""Tournaments on the site: storage, routes and the scheduler (docs/tournaments.md)."""

"""Breaks rule (e): the server's bottom layer (base) imports a domain above it (play)."""

from tests.contract_fixture.server.play import match

__all__ = ["match"]

"""Breaks rule (e): play imports the lobby, a domain above it."""


def lobby() -> object:
    from tests.contract_fixture.server.lobby import lobby

    return lobby

"""Breaks rule (e): a domain imports the app, which only its runners may import."""


def create() -> object:
    from tests.contract_fixture.server.app import board

    return board

"""Breaks rule (a): shared code imports a game (inside a function, where it still counts)."""


def board() -> object:
    from tests.contract_fixture.games.demo import rules

    return rules

"""Breaks rule (d): research/ imports view/."""

from tests.contract_fixture.games.demo.view import board

__all__ = ["board"]

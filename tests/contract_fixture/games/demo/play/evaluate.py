"""Keeps the contract: play/ imports the engine and research/."""

from tests.contract_fixture.games.demo import rules
from tests.contract_fixture.games.demo.research import solver

__all__ = ["rules", "solver"]

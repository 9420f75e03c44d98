"""Breaks rule (b): a game imports another game (and keeps rule (d): view imports the
engine)."""

from tests.contract_fixture.games.demo import rules
from tests.contract_fixture.games.other import rules as other_rules

__all__ = ["other_rules", "rules"]

"""Breaks rule (b): a game imports players."""

from tests.contract_fixture import agents
from tests.contract_fixture.core import registry

__all__ = ["agents", "registry"]

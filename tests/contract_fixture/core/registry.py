"""Breaks rule (c): core imports shared code."""

from tests.contract_fixture.server import app

__all__ = ["app"]

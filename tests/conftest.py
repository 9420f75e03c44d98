"""Shared test settings: a quick hypothesis profile for CI and local runs, English, one
Chromium per browser-test module, and the tiers' markers (docs/testing.md)."""

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from stairgames.core import registry
from stairgames.i18n import set_language

settings.register_profile(
    "stairgames",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("stairgames")


SERVICE_FIXTURES = frozenset({"postgresql", "postgresql_url", "smtp"})
"""Fixtures that start a real service (PostgreSQL, an SMTP server) for their tests."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by what it starts, so that a tier can leave it out (``pytest -m "not
    browser and not slow"``): ``browser`` for the :func:`browser` fixture, ``services``
    for the fixtures of :data:`SERVICE_FIXTURES` (a test that starts a service itself
    says so with its own ``services`` marker), and every ``services`` test ``slow``
    too. Other tests are marked ``slow`` where they are written (docs/testing.md)."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if "browser" in used:
            item.add_marker(pytest.mark.browser)
        if used & SERVICE_FIXTURES:
            item.add_marker(pytest.mark.services)
        if item.get_closest_marker("services") is not None:
            item.add_marker(pytest.mark.slow)  # starting a server takes seconds


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test reads English unless it chooses a language, whatever the machine's locale
    (``LANGUAGE`` comes first, so the command line follows it too)."""
    monkeypatch.setenv("LANGUAGE", "en")
    set_language("en")
    yield
    set_language("en")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium under Playwright, one per module (the test skips, saying why,
    without either)."""
    from tests.browser_helpers import chromium

    with chromium() as launched:
        yield launched


@pytest.fixture
def tictactoe() -> Iterator[registry.GameSpec]:
    """Tic-tac-toe (``tests/tictactoe``, the fifth game) in the registry for one test,
    forgotten after it."""
    from tests.tictactoe import SPEC

    registry.game_names()  # the four games are registered first
    registry.register(SPEC)
    try:
        yield SPEC
    finally:
        registry.unregister(SPEC.name)

"""Shared test settings: a quick hypothesis profile for CI and local runs, English, and
one Chromium per browser-test module."""

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from stairgames.i18n import set_language

settings.register_profile(
    "stairgames",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("stairgames")


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

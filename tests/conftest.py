"""Shared test settings: a quick hypothesis profile for CI and local runs."""

from collections.abc import Iterator

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

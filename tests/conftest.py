"""Shared test settings: a quick hypothesis profile for CI and local runs."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "stairgames",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("stairgames")

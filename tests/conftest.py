"""Shared fixtures and the Hypothesis profile (derandomised: the same examples every run)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "oche",
    derandomize=True,
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("oche")

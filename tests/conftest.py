"""Shared pytest configuration."""

from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")

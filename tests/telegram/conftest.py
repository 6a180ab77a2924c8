"""Fixtures for the Telegram frontend tests: a real redis-server, the real BotCore on it, the fake Bot API,
and the product's PTB Application polling that fake."""

from __future__ import annotations

from .fixtures import app, chat, core, fake, redis_url

__all__ = ["app", "chat", "core", "fake", "redis_url"]  # fixtures, shared with the browser tests

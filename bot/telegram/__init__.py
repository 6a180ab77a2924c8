"""The Telegram frontend (python-telegram-bot v22): play Fevga in groups and private chats."""

from .app import RateLimits, build_application, run_telegram, start_application, stop_application

__all__ = ["RateLimits", "build_application", "run_telegram", "start_application", "stop_application"]

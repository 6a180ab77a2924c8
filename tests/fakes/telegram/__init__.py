"""A fake Telegram Bot API server (aiohttp on 127.0.0.1) for testing real python-telegram-bot bots."""

from .objects import FakeChat, FakeMessage, FakeUser, InlineButton, MessageVersion, StoredFile
from .requests import ApiError, Call, UploadedFile
from .server import FakeTelegram
from .state import CallbackQuery, WebhookConfig

__all__ = [
    "ApiError",
    "Call",
    "CallbackQuery",
    "FakeChat",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "InlineButton",
    "MessageVersion",
    "StoredFile",
    "UploadedFile",
    "WebhookConfig",
]

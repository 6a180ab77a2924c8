"""Entry point of the fake Telegram Bot API used by frontend tests (implementation in ``telegram/``).

Typical use::

    async with FakeTelegram() as fake:
        app = Application.builder().token(fake.token).base_url(fake.base_url).build()
        alice = fake.user(1, "Alice", "alice"); room = fake.group(-100, "Tavli")
        await fake.send_text(alice, room, "/hello")
        call = await fake.wait_for_call("sendPhoto")
"""

from .telegram import (
    ApiError,
    Call,
    CallbackQuery,
    FakeChat,
    FakeMessage,
    FakeTelegram,
    FakeUser,
    InlineButton,
    MessageVersion,
    StoredFile,
    UploadedFile,
    WebhookConfig,
)

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

"""The web frontend: a game page behind a signed link, its JSON state and live updates, and plays from the
Telegram Mini App through ``BotCore`` (docs/web.md). ``bot.web.links`` is pure and used by the chats."""

from .links import WebLinks, derive_key, sign, verify

__all__ = ["WebLinks", "derive_key", "sign", "verify"]

"""Signed game links: ``<game id>.<sig>`` (or ``<sig><game id>`` where a dot is not allowed), unguessable and
scoped to one game, and the URLs built from them (the page, the Telegram Mini App). Pure: no aiohttp, so the
chat frontends can build links too."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote

if TYPE_CHECKING:
    from bot.config import Settings

SIG_CHARS = 22  # base64url characters of the HMAC kept in a link: 132 bits
MAX_TOKEN = 80  # a game id (8 characters) + "." + the signature; anything longer is not ours
_KEY_LABEL = b"fevga web links v1"


def derive_key(web_secret: str | None, *bot_tokens: str | None) -> bytes:
    """The link key: from WEB_SECRET when set, else from the bot tokens (every instance of one deployment
    derives the same key), else random (the terminal chat: links valid while the process runs)."""
    if web_secret:
        material = web_secret.encode()
    elif any(bot_tokens):
        material = "\n".join(t or "" for t in bot_tokens).encode()
    else:
        material = secrets.token_bytes(32)
    return hmac.new(material, _KEY_LABEL, hashlib.sha256).digest()


def settings_key(settings: Settings) -> bytes:
    """The link key of a deployment (the web server and every chat frontend derive the same one)."""
    secret = settings.web_secret.get_secret_value() if settings.web_secret else None
    tg = settings.telegram_token.get_secret_value() if settings.telegram_token else None
    dc = settings.discord_token.get_secret_value() if settings.discord_token else None
    return derive_key(secret, tg, dc)


def _sig(key: bytes, game_id: str) -> str:
    digest = hmac.new(key, b"g:" + game_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")[:SIG_CHARS]


def sign(key: bytes, game_id: str) -> str:
    """The link token of one game."""
    return f"{game_id}.{_sig(key, game_id)}"


def compact(key: bytes, game_id: str) -> str:
    """The same token without the dot, ``<sig><game id>`` (the signature has a fixed length): Telegram's
    ``startapp`` parameter allows only A-Z, a-z, 0-9, ``_`` and ``-``."""
    return _sig(key, game_id) + game_id


def verify(key: bytes, token: str) -> str | None:
    """The game id a token (either form) names, when its signature is ours (constant-time compare)."""
    if not isinstance(token, str) or not SIG_CHARS < len(token) <= MAX_TOKEN or token.count(".") > 1:
        return None
    if "." in token:
        game_id, sig = token.split(".")
    else:
        sig, game_id = token[:SIG_CHARS], token[SIG_CHARS:]
    if not game_id or not game_id.isascii() or not all(c.isalnum() or c in "-_" for c in game_id):
        return None
    return game_id if hmac.compare_digest(sig.encode(), _sig(key, game_id).encode()) else None


@dataclass(frozen=True)
class WebLinks:
    """Where the web page lives and how to sign its links; ``None`` wherever the web frontend is off."""

    key: bytes
    base_url: str  # e.g. https://fevga.example.org (no trailing slash)
    telegram_bot: str | None = None  # the bot's username, for t.me links
    telegram_app: str | None = None  # TELEGRAM_WEBAPP_NAME: the Mini App's short name

    def token(self, game_id: str) -> str:
        return sign(self.key, game_id)

    def page(self, game_id: str) -> str:
        """The game page: ``<base>/g/<token>``."""
        return f"{self.base_url}/g/{quote(self.token(game_id))}"

    def mini_app(self) -> str:
        """The Mini App's registered URL: ``<base>/app`` (the page then reads ``start_param``). A private
        chat's ``web_app`` button opens :meth:`page` itself (Telegram passes no ``start_param`` there)."""
        return f"{self.base_url}/app"

    def group_link(self, game_id: str) -> str:
        """For groups (``web_app`` buttons are private-only): ``t.me/<bot>/<app>?startapp=<token>`` when the
        Mini App is registered, else the plain page."""
        if self.telegram_bot and self.telegram_app:
            return f"https://t.me/{self.telegram_bot}/{self.telegram_app}?startapp={compact(self.key, game_id)}"
        return self.page(game_id)

    def with_bot(self, username: str | None) -> WebLinks:
        """The same links, knowing the Telegram bot's username (learnt at start-up)."""
        return WebLinks(self.key, self.base_url, username or None, self.telegram_app)

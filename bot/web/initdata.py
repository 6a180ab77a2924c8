"""Telegram Mini App ``initData`` verification: the HMAC-SHA256 signature (secret key = HMAC-SHA256 keyed by
"WebAppData" of the bot token) and the freshness of ``auth_date``. The user it names becomes a ``PlayerRef``."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

from bot.service.models import PlayerRef

MAX_AGE_SECONDS = 3600  # initData older than this is refused (the page reopens the Mini App for a fresh one)
MAX_SKEW_SECONDS = 60  # an auth_date this far in the future is a clock skew we tolerate, not more
MAX_INIT_DATA = 4096


class InitDataError(ValueError):
    """initData that is not Telegram's, or too old: ``code`` is ``bad_init_data`` or ``init_data_expired``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class TelegramUser:
    """Who opened the Mini App, as Telegram vouches for it."""

    player: PlayerRef
    language: str | None
    start_param: str | None


def secret_key(bot_token: str) -> bytes:
    """Telegram's key for Mini App data: HMAC-SHA256 with the key "WebAppData" over the bot token."""
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def verify_init_data(raw: str, key: bytes, *, now: float | None = None,
                     max_age: float = MAX_AGE_SECONDS) -> TelegramUser:
    """Check ``raw`` (the query string ``Telegram.WebApp.initData``) against ``key`` (:func:`secret_key`);
    the user it names, or :class:`InitDataError`."""
    if not raw or len(raw) > MAX_INIT_DATA:
        raise InitDataError("bad_init_data")
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise InitDataError("bad_init_data") from None
    fields = dict(pairs)
    given = fields.pop("hash", "")
    if len(fields) + 1 != len(pairs) or not given:  # a repeated field is not Telegram's
        raise InitDataError("bad_init_data")
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    expected = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected.encode(), given.lower().encode()):
        raise InitDataError("bad_init_data")
    try:
        auth_date = int(fields.get("auth_date", ""))
        user = json.loads(fields.get("user", ""))
        user_id = int(user["id"])
    except (ValueError, TypeError, KeyError):
        raise InitDataError("bad_init_data") from None
    moment = time.time() if now is None else now
    if not moment - max_age <= auth_date <= moment + MAX_SKEW_SECONDS:
        raise InitDataError("init_data_expired")
    first, last = str(user.get("first_name") or ""), str(user.get("last_name") or "")
    username = str(user.get("username") or "")
    name = " ".join(p for p in (first, last) if p) or (f"@{username}" if username else str(user_id))
    lang = str(user.get("language_code") or "")[:2] or None
    return TelegramUser(PlayerRef("telegram", str(user_id), name), lang, fields.get("start_param") or None)


def sign_init_data(fields: dict[str, str], key: bytes) -> str:
    """Build signed initData as Telegram would (tests and benchmarks play the Telegram client with it)."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    digest = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})

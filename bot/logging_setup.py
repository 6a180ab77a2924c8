"""Structured logging (structlog over stdlib logging) that never prints a bot token.

Everything goes through one stdlib handler whose ``structlog`` formatter renders JSON or console
lines, so records from discord.py, python-telegram-bot and httpx (which logs request URLs with the
Telegram token inside) pass the same redaction as our own events: values under secret-looking keys,
anything shaped like a Discord or Telegram token, URL passwords, and every secret registered at
configuration time are replaced by ``[REDACTED]``, both before and after rendering.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Iterable, Mapping
from typing import Any, TextIO

import structlog
from structlog.typing import EventDict, Processor, WrappedLogger

REDACTED = "[REDACTED]"
LOG_FORMATS = ("json", "console")

# A Telegram bot token: "<bot id>:<35 url-safe characters>"; it often follows ".../bot" in URLs,
# so only a preceding digit (not a letter) rules a match out.
_TELEGRAM_TOKEN = re.compile(r"(?<![0-9])[0-9]{5,}:[A-Za-z0-9_-]{30,}")
# A Discord token: three base64url parts joined by dots (user id, timestamp, HMAC); the look-behind
# pins a match to the start of a run, which keeps the search linear on long base64 blobs.
_DISCORD_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{20,}")
_DISCORD_MFA_TOKEN = re.compile(r"\bmfa\.[A-Za-z0-9_-]{20,}")
# "Authorization: Bot <token>" / "Bearer <token>" headers.
_AUTH_SCHEME = re.compile(r"\b(Bot|Bearer)\s+[A-Za-z0-9._~+/=-]{16,}")
# user:password@ in URLs such as redis://:password@host:6379/0.
_URL_PASSWORD = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^:/@\s]*):[^@/\s]+@")
_SENSITIVE_KEY = re.compile(r"token|secret|passw|authorization|api[_-]?key|credential", re.IGNORECASE)
_MIN_SECRET_LENGTH = 6

_known_secrets: tuple[str, ...] = ()
_SECRET_VARIABLES = ("DISCORD_TOKEN", "TELEGRAM_TOKEN", "TELEGRAM_WEBHOOK_SECRET", "WEB_SECRET")
_NOISY_LOGGERS = ("httpx", "httpcore", "hpack", "websockets", "aiohttp.access")


def register_secrets(secrets: Iterable[str]) -> None:
    """Add literal secret values (tokens, webhook secret) that must be redacted wherever they appear."""
    global _known_secrets
    fresh = {s for s in secrets if s and len(s) >= _MIN_SECRET_LENGTH}
    # Longest first, so a secret containing another is removed whole.
    _known_secrets = tuple(sorted(set(_known_secrets) | fresh, key=len, reverse=True))


def redact_text(text: str) -> str:
    """Return ``text`` with every token-like substring, URL password and registered secret replaced."""
    for secret in _known_secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    text = _TELEGRAM_TOKEN.sub(REDACTED, text)
    text = _DISCORD_TOKEN.sub(REDACTED, text)
    text = _DISCORD_MFA_TOKEN.sub(REDACTED, text)
    text = _AUTH_SCHEME.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    return _URL_PASSWORD.sub(lambda m: f"{m.group('head')}:{REDACTED}@", text)


def is_sensitive_key(key: object) -> bool:
    """True when a mapping key names something secret (token, secret, password, ...)."""
    return isinstance(key, str) and _SENSITIVE_KEY.search(key) is not None


def _is_blank(value: Any) -> bool:
    """None or an empty string: nothing to hide, so it is shown as is."""
    return value is None or (isinstance(value, str) and value == "")


def redact_value(value: Any) -> Any:
    """Redact strings, and strings nested in mappings and sequences; other values pass unchanged."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, Mapping):
        return redact_mapping(value)
    if isinstance(value, list | tuple):
        return [redact_value(item) for item in value]
    return value


def redact_mapping(mapping: Mapping[Any, Any]) -> dict[Any, Any]:
    """A copy of ``mapping`` with values under secret-looking keys hidden and all strings redacted."""
    out: dict[Any, Any] = {}
    for key, value in mapping.items():
        if is_sensitive_key(key) and not _is_blank(value):
            out[key] = REDACTED
        else:
            out[key] = redact_value(value)
    return out


def redact_event(_logger: WrappedLogger, _method: str, event_dict: EventDict) -> EventDict:
    """structlog processor: redact an event dict (keys starting with '_' are structlog internals)."""
    for key, value in list(event_dict.items()):
        if isinstance(key, str) and key.startswith("_"):
            continue
        if is_sensitive_key(key) and not _is_blank(value):
            event_dict[key] = REDACTED
        else:
            event_dict[key] = redact_value(value)
    return event_dict


def redact_rendered(_logger: WrappedLogger, _method: str, rendered: Any) -> Any:
    """Last processor, after the renderer: a final pass over the rendered line (catches odd reprs)."""
    if isinstance(rendered, str):
        return redact_text(rendered)
    return rendered


def _level_number(level: str | int) -> int:
    """Turn 'info' / 'INFO' / 20 into a stdlib level number, rejecting unknown names."""
    if isinstance(level, int):
        return level
    number = logging.getLevelName(level.strip().upper())
    if not isinstance(number, int):
        raise ValueError(f"unknown log level {level!r}: expected DEBUG, INFO, WARNING, ERROR or CRITICAL")
    return number


def _renderer(fmt: str, stream: TextIO) -> Processor:
    """The final renderer for ``fmt``: one JSON object per line, or a readable console line."""
    if fmt == "json":
        return structlog.processors.JSONRenderer()
    colors = bool(getattr(stream, "isatty", lambda: False)())
    return structlog.dev.ConsoleRenderer(colors=colors, exception_formatter=structlog.dev.plain_traceback)


def configure_logging(
    level: str | int = "INFO",
    fmt: str = "console",
    *,
    stream: TextIO | None = None,
    secrets: Iterable[str] = (),
) -> None:
    """Send all logging (ours and the libraries') through one redacting structlog handler.

    ``fmt`` is "json" (one object per line, for production) or "console" (readable lines).
    ``secrets`` are literal values (the configured tokens) to redact even where no pattern matches.
    Calling it again replaces the previous configuration (the root logger's handlers are reset).
    """
    if fmt not in LOG_FORMATS:
        raise ValueError(f"unknown log format {fmt!r}: expected one of {', '.join(LOG_FORMATS)}")
    number = _level_number(level)
    out = stream if stream is not None else sys.stderr
    register_secrets(secrets)

    timestamper = structlog.processors.TimeStamper(fmt="iso", utc=True)
    shared: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        timestamper,
    ]
    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            *shared,
            structlog.stdlib.PositionalArgumentsFormatter(),
            structlog.processors.StackInfoRenderer(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=False,
    )
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            redact_event,
            _renderer(fmt, out),
            redact_rendered,
        ],
    )
    handler = logging.StreamHandler(out)
    handler.setFormatter(formatter)

    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(number)
    # Libraries that log every HTTP request are kept to warnings unless we are debugging.
    for name in _NOISY_LOGGERS:
        logging.getLogger(name).setLevel(number if number <= logging.DEBUG else max(number, logging.WARNING))
    logging.captureWarnings(True)


def configure_logging_from_environment(stream: TextIO | None = None) -> None:
    """Logging for a failure before the settings could be read: LOG_FORMAT and LOG_LEVEL from the real
    environment when valid (else console, INFO), and the token variables registered as secrets."""
    fmt = os.environ.get("LOG_FORMAT", "").strip().lower()
    level = os.environ.get("LOG_LEVEL", "").strip().upper()
    secrets = [os.environ.get(name, "").strip() for name in _SECRET_VARIABLES]
    configure_logging(level if isinstance(logging.getLevelName(level), int) else "INFO",
                      fmt if fmt in LOG_FORMATS else "console", stream=stream, secrets=secrets)


def get_logger(name: str | None = None) -> Any:
    """A structlog logger bound to the stdlib logger ``name`` (use after ``configure_logging``)."""
    return structlog.stdlib.get_logger(name)

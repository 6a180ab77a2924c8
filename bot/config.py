"""Bot settings read from the environment and a ``.env`` file (pydantic-settings).

``load_settings()`` is the one entry point: a bad value stops start-up with a ``ConfigError`` whose
message names each bad variable and what it expects, never a pydantic traceback, and never echoes
a secret. Field names are the environment variable names in lower case (``FEVGA_LANGUAGE`` ->
``settings.fevga_language``), so there is no second naming scheme to keep in sync.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import parse_qsl, urlsplit

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_core import ErrorDetails, PydanticCustomError
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict, SettingsError

from bot.logging_setup import REDACTED, redact_text

DEFAULT_DISCORD_API_BASE_URL = "https://discord.com/api/v10"  # discord.py's Route.BASE
DEFAULT_TELEGRAM_API_BASE_URL = "https://api.telegram.org/bot"  # PTB appends the token to it
MAX_TURN_DEADLINE_HOURS = 24 * 365
MAX_CHALLENGE_TTL_MINUTES = 60 * 24 * 7

_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
# Errors of this type carry a complete message of their own, shown after the variable name.
_VERBATIM_ERROR = "fevga_config"
_SECRET_FIELDS = frozenset({"discord_token", "telegram_token", "telegram_webhook_secret", "web_secret"})
_WEBAPP_NAME = re.compile(r"[A-Za-z0-9_]{3,64}")
# The password in a URL's userinfo ("scheme://user:password@host", also after each comma of a
# redis+cluster:// host list); it runs to the "@" after which the host has no "@" (as urlsplit reads "p@ss").
_USERINFO_PASSWORD = re.compile(
    r"(?P<head>(?:[A-Za-z][A-Za-z0-9+.-]*://|,)[^:/@\s,]*):[^/\s]*?@(?=[^@/\s,]*(?:[,/\s]|$))"
)
_QUERY_PASSWORD = re.compile(r"(?P<key>[?&;][A-Za-z_]*password=)[^&#\s'\"]*", re.IGNORECASE)  # ?ssl_password=...

Port = Annotated[int, Field(ge=1, le=65535)]

# What each variable expects, in the words used by the start-up error messages.
EXPECTS: dict[str, str] = {
    "discord_token": "a Discord bot token",
    "discord_api_base_url": "an http:// or https:// URL such as https://discord.com/api/v10",
    "discord_gateway_url": "a ws:// or wss:// URL",
    "discord_shard_count": "a whole number of at least 1",
    "discord_shard_ids": "shard numbers separated by commas, each below DISCORD_SHARD_COUNT (which must be set)",
    "discord_command_prefix": "a prefix that is not only spaces",
    "telegram_token": "a Telegram bot token",
    "telegram_api_base_url": "an http:// or https:// URL such as https://api.telegram.org/bot",
    "telegram_webhook_url": "an http:// or https:// URL (Telegram itself accepts only https)",
    "telegram_webhook_listen": "an IP address such as 0.0.0.0 or ::",
    "telegram_webhook_port": "a port number from 1 to 65535",
    "telegram_webhook_secret": "1 to 256 characters from A-Z, a-z, 0-9, _ and -",
    "redis_url": "a redis://, rediss:// or unix:// URL, or redis+cluster://host:port,host:port,... for a Redis Cluster "
    "(rediss+cluster://... with TLS)",
    "redis_wait_replicas": "a whole number from 0 to 16 (or empty: 1 on a cluster, 0 otherwise)",
    "redis_wait_ms": "a whole number of milliseconds from 1 to 60000",
    "fevga_data_dir": "a directory path",
    "fevga_language": "one of: en, el",
    "fevga_turn_deadline_hours": f"a number greater than 0 (at most {MAX_TURN_DEADLINE_HOURS})",
    "fevga_challenge_ttl_minutes": f"a number greater than 0 (at most {MAX_CHALLENGE_TTL_MINUTES})",
    "fevga_ai_level": "one of: easy, medium, hard, expert",
    "fevga_tick_seconds": "a number greater than 0 (at most 3600)",
    "fevga_ping_after_seconds": "a number of seconds from 0 to 3600",
    "fevga_analysis_workers": "a whole number from 1 to 32",
    "fevga_analysis_ply": "one of: 0, 1, 2 (or empty for the hard level's search)",
    "log_level": "one of: DEBUG, INFO, WARNING, ERROR, CRITICAL",
    "log_format": "one of: json, console",
    "fevga_event_loop": "one of: uvloop, asyncio",
    "fevga_gc": "one of: tuned, default",
    "fevga_switch_ms": "a number of milliseconds greater than 0 (at most 100)",
    "fevga_draw_processes": "a whole number from 0 to 32",
    "health_port": "a port number from 1 to 65535",
    "discord_prefix_commands": "true or false",
    "discord_member_events": "true or false",
    "fevga_instance_id": "1 to 100 characters",
    "web_port": "a port number from 1 to 65535",
    "web_base_url": "an http:// or https:// URL such as https://fevga.example.org",
    "web_secret": "at least 16 characters",
    "telegram_webapp_name": "the Mini App's short name: 3 to 64 characters from A-Z, a-z, 0-9 and _",
}


class ConfigError(ValueError):
    """Invalid settings; ``str()`` is one human-readable line per bad variable."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


def _check_url(value: str, schemes: tuple[str, ...]) -> str:
    """Return ``value`` stripped if it is a URL with one of ``schemes`` and a host (or a unix path), without a
    password in its query (``ssl_password``: a query is not hidden in logs)."""
    value = value.strip()
    parts = urlsplit(value)
    if any("password" in name.lower() for name, _ in parse_qsl(parts.query, keep_blank_values=True)):
        raise ValueError("a password cannot be given in the URL's query (ssl_password): use a key file without one")
    scheme = parts.scheme.lower()
    if scheme not in schemes:
        raise ValueError(f"scheme must be one of {schemes}")
    if scheme == "unix":
        if not parts.path:
            raise ValueError("a unix URL needs a socket path")
    elif not parts.hostname:
        raise ValueError("the URL needs a host")
    _ = parts.port  # raises ValueError for a port that is not a number in range
    return value


def _lower(value: Any) -> Any:
    """Strip and lower-case strings (enum-like settings are case-insensitive)."""
    return value.strip().lower() if isinstance(value, str) else value


class Settings(BaseSettings):
    """Everything the bot reads from its environment; see ``.env.example`` for each variable."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
        env_ignore_empty=True,  # "VAR=" in a .env file means "use the default"
        hide_input_in_errors=True,  # a raw ValidationError never prints a (secret) value
    )

    discord_token: SecretStr | None = None
    discord_api_base_url: str = DEFAULT_DISCORD_API_BASE_URL
    discord_gateway_url: str | None = None
    discord_shard_count: Annotated[int, Field(ge=1)] | None = None
    # The shards this process runs ("0,1"; unset: all of them); several processes then split one bot's servers.
    discord_shard_ids: Annotated[tuple[int, ...], NoDecode] | None = Field(default=None, validate_default=True)
    discord_command_prefix: Annotated[str, Field(min_length=1)] = "!fevga "
    discord_prefix_commands: bool = True  # false: slash commands only (no Message Content intent needed)
    discord_member_events: bool = False  # true: members leaving withdraw from tournaments (Server Members intent)

    telegram_token: SecretStr | None = None
    telegram_api_base_url: str = DEFAULT_TELEGRAM_API_BASE_URL
    telegram_webhook_url: str | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: Port = 8443
    # Validated even when unset: it is required in webhook mode (see _webhook_secret).
    telegram_webhook_secret: SecretStr | None = Field(default=None, validate_default=True)

    redis_url: str | None = None
    # Replicas that must confirm each commit (WAIT) before the answer; unset: 1 on a cluster, 0 on one Redis.
    redis_wait_replicas: Annotated[int, Field(ge=0, le=16)] | None = None
    redis_wait_ms: Annotated[int, Field(ge=1, le=60_000)] = 500  # then "saved, may be delayed" (and counted)
    fevga_data_dir: Path = Path("./data")
    fevga_language: Literal["en", "el"] = "en"
    fevga_turn_deadline_hours: Annotated[float, Field(gt=0, le=MAX_TURN_DEADLINE_HOURS, allow_inf_nan=False)] = 24.0
    fevga_challenge_ttl_minutes: Annotated[float, Field(gt=0, le=MAX_CHALLENGE_TTL_MINUTES, allow_inf_nan=False)] = 10.0
    fevga_ai_level: Literal["easy", "medium", "hard", "expert"] = "medium"
    # How often each instance looks for due timers (challenge expiry, reminders, deadlines).
    fevga_tick_seconds: Annotated[float, Field(gt=0, le=3600, allow_inf_nan=False)] = 30.0
    # How long the player to move is idle before his turn ping, where the place has no ping_after setting.
    fevga_ping_after_seconds: Annotated[float, Field(ge=0, le=3600, allow_inf_nan=False)] = 30.0
    fevga_analysis_workers: Annotated[int, Field(ge=1, le=32)] = 1  # worker processes for `analyze`
    fevga_analysis_ply: Annotated[int, Field(ge=0, le=2)] | None = None  # None: judge with the hard level's search

    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    log_format: Literal["json", "console"] = "console"
    fevga_event_loop: Literal["uvloop", "asyncio"] = "uvloop"  # asyncio's own loop where uvloop is missing anyway
    fevga_gc: Literal["tuned", "default"] = "tuned"  # default: Python's garbage collector settings (event_loop.tune_gc)
    fevga_switch_ms: Annotated[float, Field(gt=0, le=100, allow_inf_nan=False)] = 1.0  # the GIL's switch interval
    fevga_draw_processes: Annotated[int, Field(ge=0, le=32)] = 0  # 0: boards drawn in a thread (bot/chat/draw_pool.py)
    health_port: Port | None = None
    fevga_instance_id: Annotated[str, Field(min_length=1, max_length=100)] | None = None  # outbox consumer name

    web_port: Port | None = None  # the web page (bot/web); the terminal chat uses a local port by default
    web_base_url: str | None = None  # the page's public address, used in the chats' "Open board" links
    web_secret: Annotated[SecretStr, Field(min_length=16)] | None = None  # link signing key (else derived)
    telegram_webapp_name: str | None = None  # the Mini App's short name: t.me/<bot>/<name> links in groups

    @field_validator("discord_token", "telegram_token", "telegram_webhook_secret", "web_secret", mode="before")
    @classmethod
    def _strip_secret(cls, value: Any) -> Any:
        """Secrets pasted with a trailing newline or spaces still work; blank means unset."""
        if isinstance(value, str):
            value = value.strip()
            return value or None
        return value

    @field_validator("discord_api_base_url", "telegram_api_base_url", "telegram_webhook_url", "web_base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        return None if value is None else _check_url(value, ("http", "https"))

    @field_validator("web_base_url")
    @classmethod
    def _base_without_slash(cls, value: str | None) -> str | None:
        return None if value is None else value.rstrip("/")

    @field_validator("telegram_webapp_name")
    @classmethod
    def _webapp_name(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not _WEBAPP_NAME.fullmatch(value.strip()):
            raise ValueError("bad Mini App name")
        return value.strip()

    @field_validator("discord_api_base_url")
    @classmethod
    def _no_trailing_slash(cls, value: str) -> str:
        """discord.py joins the base and the route with '/', so the base must not end with one."""
        return value.rstrip("/")

    @field_validator("discord_gateway_url")
    @classmethod
    def _ws_url(cls, value: str | None) -> str | None:
        return None if value is None else _check_url(value, ("ws", "wss"))

    @field_validator("redis_url")
    @classmethod
    def _redis_url(cls, value: str | None) -> str | None:
        if value is not None and value.strip().lower().startswith(("redis+cluster://", "rediss+cluster://")):
            from bot.storage.cluster_store import parse_cluster_url

            try:
                parse_cluster_url(value.strip())
            except ValueError as exc:  # a bad node, an unknown or misplaced option: which, after the usual line
                shown = {"expects": EXPECTS["redis_url"], "url": _shown_input("redis_url", value), "problem": str(exc)}
                raise PydanticCustomError(_VERBATIM_ERROR, "expected {expects}, got {url}: {problem}", shown) from None
            return value.strip()
        return None if value is None else _check_url(value, ("redis", "rediss", "unix"))

    @field_validator("telegram_webhook_listen")
    @classmethod
    def _ip_address(cls, value: str) -> str:
        value = value.strip()
        ipaddress.ip_address(value)  # ValueError for anything that is not an IPv4/IPv6 address
        return value

    @field_validator("discord_command_prefix")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the prefix is only spaces")
        return value

    @field_validator("discord_shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: Any) -> Any:
        """ "0,2" -> (0, 2), one number -> a one-shard tuple; anything else is left to the type check."""
        if isinstance(value, int) and not isinstance(value, bool):
            return (value,)
        if isinstance(value, str):
            return tuple(int(part) for part in value.split(",") if part.strip()) if value.strip() else None
        return value

    @field_validator("discord_shard_ids")
    @classmethod
    def _shards_in_range(cls, value: tuple[int, ...] | None, info: ValidationInfo) -> tuple[int, ...] | None:
        """Shard ids need the shard count, and each must be one of its shards."""
        if value is None:
            return None
        count = info.data.get("discord_shard_count")
        if count is None or not value or len(set(value)) != len(value) or not all(0 <= i < count for i in value):
            raise ValueError("bad shard ids")
        return value

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _webhook_secret(cls, value: SecretStr | None, info: ValidationInfo) -> SecretStr | None:
        """Webhook mode must check Telegram's secret header, so the secret is then mandatory."""
        if value is None:
            if info.data.get("telegram_webhook_url") is not None:
                raise PydanticCustomError(
                    _VERBATIM_ERROR,
                    "required when TELEGRAM_WEBHOOK_URL is set (1 to 256 characters from A-Z, a-z, 0-9, _ and -)",
                )
            return None
        if not _WEBHOOK_SECRET.fullmatch(value.get_secret_value()):
            raise ValueError("bad webhook secret")
        return value

    @field_validator("fevga_language", "fevga_ai_level", "log_format", "fevga_event_loop", "fevga_gc", mode="before")
    @classmethod
    def _lower_enums(cls, value: Any) -> Any:
        return _lower(value)

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @property
    def has_discord(self) -> bool:
        """True when a Discord token is configured (the Discord frontend should start)."""
        return self.discord_token is not None and bool(self.discord_token.get_secret_value())

    @property
    def has_telegram(self) -> bool:
        """True when a Telegram token is configured (the Telegram frontend should start)."""
        return self.telegram_token is not None and bool(self.telegram_token.get_secret_value())

    @property
    def telegram_webhook_mode(self) -> bool:
        """True when Telegram updates arrive by webhook (TELEGRAM_WEBHOOK_URL set), else polling."""
        return self.telegram_webhook_url is not None

    def secret_values(self) -> list[str]:
        """The plain secret values, for ``configure_logging(secrets=...)`` to redact literally."""
        values: list[str] = []
        for name in sorted(_SECRET_FIELDS):
            secret = getattr(self, name)
            if isinstance(secret, SecretStr):
                values.append(secret.get_secret_value())
        return values

    def redacted(self) -> dict[str, Any]:
        """Every setting by variable name, safe to log: secrets hidden, URL passwords and tokens masked."""
        out: dict[str, Any] = {}
        for name in type(self).model_fields:
            value = getattr(self, name)
            if isinstance(value, SecretStr):
                shown: Any = REDACTED
            elif isinstance(value, str):
                shown = redact_text(value)
            elif isinstance(value, Path):
                shown = str(value)
            else:
                shown = value
            out[name.upper()] = shown
        return out


def hide_url_passwords(text: str) -> str:
    """``text`` with the password of every URL in it replaced (``redis://:pw@h`` -> ``redis://:[REDACTED]@h``),
    then token-shaped parts redacted: a rejected REDIS_URL or WEB_BASE_URL is shown without its secret."""
    text = _QUERY_PASSWORD.sub(lambda m: f"{m.group('key')}{REDACTED}", text)  # a password in the query too
    return redact_text(_USERINFO_PASSWORD.sub(lambda m: f"{m.group('head')}:{REDACTED}@", text))


def _shown_input(field: str, value: Any) -> str:
    """How a rejected input appears in the error: quoted with any URL password hidden, or only its length
    for secrets."""
    if field in _SECRET_FIELDS:
        length = len(value) if isinstance(value, str) else 0
        return f"a hidden value of {length} characters"
    if isinstance(value, SecretStr):
        return "a hidden value"
    if isinstance(value, str):
        return repr(hide_url_passwords(value))
    return repr(value)


def describe_errors(exc: ValidationError) -> list[str]:
    """Translate pydantic's errors into one line per bad variable: 'NAME: expected X, got Y'."""
    lines: list[str] = []
    seen: set[str] = set()
    details: list[ErrorDetails] = exc.errors()
    for error in details:
        loc = error.get("loc") or ()
        if not loc:
            line, key = error["msg"], error["msg"]
        else:
            field = str(loc[0]).lower()
            key = field
            expects = EXPECTS.get(field)
            if expects is None or error["type"] == _VERBATIM_ERROR:
                line = f"{field.upper()}: {error['msg']}"
            else:
                line = f"{field.upper()}: expected {expects}, got {_shown_input(field, error.get('input'))}"
        if key not in seen:
            seen.add(key)
            lines.append(line)
    return lines


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read the settings from the environment and ``env_file`` (None: environment only).

    Real environment variables win over the file. Raises ``ConfigError`` naming every bad variable.
    """
    build: Callable[..., Settings] = Settings
    try:
        return build(_env_file=env_file)
    except ValidationError as exc:
        raise ConfigError(describe_errors(exc)) from None
    except SettingsError as exc:
        raise ConfigError([f"could not read the settings: {redact_text(str(exc))}"]) from None


def instance_id(settings: Settings | None = None) -> str:
    """This instance's name in the outbox consumer groups: FEVGA_INSTANCE_ID (e.g. the pod name, so a
    restarted pod takes its own pending entries back), else host name and process id."""
    if settings is not None and settings.fevga_instance_id:
        return settings.fevga_instance_id
    return f"{socket.gethostname()}:{os.getpid()}"

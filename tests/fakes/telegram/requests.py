"""Decoding Bot API requests (JSON, urlencoded, multipart or query string) and Telegram-shaped errors."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

JSON = dict[str, Any]

# Parameters whose form value is JSON (PTB json-encodes every non-str value); all others stay strings.
_JSON_KEYS = frozenset(
    {
        "reply_markup", "entities", "caption_entities", "media", "commands", "scope", "allowed_updates",
        "reply_parameters", "link_preview_options", "results", "offset", "limit", "timeout", "message_id",
        "user_id", "cache_time", "reply_to_message_id", "message_thread_id", "max_connections",
        "from_chat_id", "width", "height", "duration", "show_alert", "disable_notification",
        "protect_content", "drop_pending_updates", "has_spoiler", "allow_sending_without_reply",
        "show_caption_above_media", "disable_content_type_detection", "allow_paid_broadcast",
        "message_ids", "is_personal",
    }
)  # fmt: skip


class ApiError(Exception):
    """A Bot API error answer: {"ok": false, "error_code", "description", "parameters"?}."""

    def __init__(self, error_code: int, description: str, retry_after: float | None = None) -> None:
        super().__init__(f"{error_code} {description}")
        self.error_code = error_code
        self.description = description
        self.retry_after = retry_after

    def payload(self) -> JSON:
        """The JSON body Telegram sends for this error."""
        body: JSON = {"ok": False, "error_code": self.error_code, "description": self.description}
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        return body


def bad_request(what: str) -> ApiError:
    """A 400 error with Telegram's "Bad Request: ..." wording."""
    return ApiError(400, f"Bad Request: {what}")


@dataclass(frozen=True)
class UploadedFile:
    """A multipart file part: part name, client file name, content type and bytes."""

    name: str
    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class Call:
    """One Bot API request as the fake received and answered it (see FakeTelegram.calls)."""

    index: int
    method: str
    params: JSON
    files: dict[str, UploadedFile]
    http_method: str
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    status: int | None = None
    result: Any = None
    error: ApiError | None = None

    @property
    def ok(self) -> bool:
        """True once the call finished with a successful answer."""
        return self.status == 200

    def __repr__(self) -> str:
        return f"<Call #{self.index} {self.method} {self.status} {self.params!r}>"


def _decode(key: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if key == "chat_id":
        try:
            return int(value)
        except ValueError:
            return value
    if key in _JSON_KEYS:
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


async def read_request(request: web.Request) -> tuple[JSON, dict[str, UploadedFile]]:
    """Parameters (decoded to ints/bools/JSON where the Bot API says so) and uploaded files."""
    raw: dict[str, Any] = dict(request.query)
    files: dict[str, UploadedFile] = {}
    if request.method == "POST" and request.can_read_body:
        if request.content_type == "application/json":
            body = await request.json()
            if isinstance(body, dict):
                raw.update(body)
        else:
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    data = value.file.read()
                    files[key] = UploadedFile(key, value.filename, value.content_type, data)
                    raw[key] = f"attach://{key}"
                else:
                    raw[key] = value if isinstance(value, str) else bytes(value).decode()
    return {key: _decode(key, value) for key, value in raw.items()}, files


def require(params: JSON, key: str) -> Any:
    """params[key], or Telegram's 400 for a missing parameter."""
    value = params.get(key)
    if value is None or value == "":
        raise bad_request(f"parameter {key} is required")
    return value


def int_param(params: JSON, key: str) -> int:
    """A required integer parameter."""
    value = require(params, key)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise bad_request(f"invalid {key} specified") from None

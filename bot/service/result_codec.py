"""A whole Result packed for the outbox (a timer's notice travels with its commit) and read back, bounded."""

from __future__ import annotations

import json
import zlib

from bot.storage.bounded import DamagedValue, inflate

from .models import Result

MAX_RESULT_BYTES = 256 * 1024  # a notice's result inflated; far above any real one


def encode_result(result: Result) -> bytes:
    """A result as compressed compact JSON."""
    return zlib.compress(json.dumps(result.to_dict(), separators=(",", ":")).encode(), 1)


def decode_result(raw: bytes | None) -> Result | None:
    """Inverse of :func:`encode_result`; None when missing, oversized or unreadable."""
    if raw is None:
        return None
    try:
        return Result.from_dict(json.loads(inflate(raw, max_inflated=MAX_RESULT_BYTES)))
    except (DamagedValue, ValueError, KeyError, TypeError):
        return None

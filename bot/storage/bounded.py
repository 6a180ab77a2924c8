"""Bounded decoding of stored values: stored bytes are untrusted, so no decode may take unbounded time
or memory (a zlib bomb, a version "number" with a million digits).

The service decodes sessions with :func:`inflate` and :func:`split_versioned`; both raise
:class:`DamagedValue` (a ``ValueError``) so a damaged value is reported as damaged, never as a crash.
"""

from __future__ import annotations

import zlib

from .base import DamagedValue, split_versioned

MAX_COMPRESSED = 256 * 1024  # a finished 90-turn session is ~1 KB compressed
MAX_INFLATED = 4 * 1024 * 1024


def inflate(blob: bytes, max_compressed: int = MAX_COMPRESSED, max_inflated: int = MAX_INFLATED) -> bytes:
    """zlib-decompress ``blob``, refusing input over ``max_compressed`` bytes or output over
    ``max_inflated`` bytes before producing more than that (so a bomb costs at most ``max_inflated``)."""
    if len(blob) > max_compressed:
        raise DamagedValue(f"compressed value too large ({len(blob)} > {max_compressed} bytes)")
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(blob, max_inflated + 1)
        if len(out) > max_inflated or inflater.unconsumed_tail:
            raise DamagedValue(f"value inflates past {max_inflated} bytes")
        out += inflater.flush(max_inflated + 1 - len(out))
    except zlib.error as exc:
        raise DamagedValue(f"corrupt compressed value: {exc}") from exc
    if len(out) > max_inflated:
        raise DamagedValue(f"value inflates past {max_inflated} bytes")
    if not inflater.eof:
        raise DamagedValue("truncated compressed value")
    return out


def inflate_versioned(raw: bytes, max_compressed: int = MAX_COMPRESSED,
                      max_inflated: int = MAX_INFLATED) -> tuple[int, bytes]:
    """A versioned, compressed value (``b"<version>:" + zlib(payload)``) as (version, payload), bounded."""
    version, blob = split_versioned(raw)
    return version, inflate(blob, max_compressed, max_inflated)


__all__ = ["MAX_COMPRESSED", "MAX_INFLATED", "DamagedValue", "inflate", "inflate_versioned", "split_versioned"]

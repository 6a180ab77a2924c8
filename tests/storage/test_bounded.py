"""Bounded decoding: a zlib bomb or an absurd version prefix fails fast, small and as DamagedValue."""

from __future__ import annotations

import time
import tracemalloc
import zlib

import pytest

from bot.storage.base import DamagedValue, split_versioned, versioned
from bot.storage.bounded import inflate, inflate_versioned


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """About 1 MB of zlib that inflates to 1 GiB of zeros (made in chunks, never held inflated)."""
    packer = zlib.compressobj(9)
    chunk = bytes(1 << 20)
    blob = b"".join(packer.compress(chunk) for _ in range(1024)) + packer.flush()
    assert 900_000 < len(blob) < 1_200_000
    return blob


@pytest.mark.timeout(60)
@pytest.mark.parametrize("max_compressed", [64 * 1024, 2 * 1024 * 1024])
def test_a_bomb_fails_fast_without_a_big_allocation(bomb: bytes, max_compressed: int) -> None:
    tracemalloc.start()
    began = time.perf_counter()
    with pytest.raises(DamagedValue):
        inflate(bomb, max_compressed=max_compressed, max_inflated=1 << 20)
    took = time.perf_counter() - began
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert took < 0.1
    assert peak < 8 * (1 << 20)  # a few MB at most, never the GiB


def test_inflate_round_trips_and_rejects_damage() -> None:
    payload = b'{"sv": 1, "moves": [1, 2, 3]}' * 20
    assert inflate(zlib.compress(payload)) == payload
    assert inflate_versioned(versioned(7, zlib.compress(payload))) == (7, payload)
    with pytest.raises(DamagedValue):
        inflate(b"not zlib at all")
    with pytest.raises(DamagedValue):
        inflate(zlib.compress(payload)[:-6])  # truncated
    with pytest.raises(DamagedValue):
        inflate(zlib.compress(payload), max_inflated=len(payload) - 1)
    assert inflate(zlib.compress(payload), max_inflated=len(payload)) == payload


@pytest.mark.parametrize("raw", [b"", b"abc", b"12", b":x", b"-1:x", b"\xd9\xa3:x", b"1" * 19 + b":x",
                                 b"9" * 1_000_000 + b":x"])
def test_split_versioned_rejects_damage_quickly(raw: bytes) -> None:
    began = time.perf_counter()
    with pytest.raises(DamagedValue):
        split_versioned(raw)
    assert time.perf_counter() - began < 0.25  # loose for a loaded CI machine: a million-digit parse takes seconds


def test_split_versioned_accepts_the_largest_version() -> None:
    assert split_versioned(b"9" * 18 + b":a:b") == (10**18 - 1, b"a:b")
    assert split_versioned(versioned(0, b"")) == (0, b"")

"""Typed reads over :meth:`Store.read`: a :class:`Reads` batch hands out typed handles, then runs in one
round trip. Service code reads ``handle.value`` instead of unpacking a positional list of raw answers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

from bot.storage.base import Read, Store

from . import keys
from .models import Place

T = TypeVar("T")
_UNSET: Any = object()


class Handle(Generic[T]):
    """One read's answer, available as :attr:`value` once its batch has run."""

    __slots__ = ("_convert", "_value")

    def __init__(self, convert: Callable[[Any], T] | None = None) -> None:
        self._value: Any = _UNSET
        self._convert = convert

    def _fill(self, raw: Any) -> None:
        self._value = raw if self._convert is None else self._convert(raw)

    @property
    def value(self) -> T:
        """The answer (a RuntimeError before the batch ran: a bug, never a data problem)."""
        if self._value is _UNSET:
            raise RuntimeError("read before its batch ran")
        return cast(T, self._value)


class Reads:
    """Reads collected for one pipelined round trip; each method adds one and returns its typed handle."""

    __slots__ = ("_handles", "_requests")

    def __init__(self) -> None:
        self._requests: list[Read] = []
        self._handles: list[Handle[Any]] = []

    def _add(self, request: Read, handle: Handle[T]) -> Handle[T]:
        self._requests.append(request)
        self._handles.append(handle)
        return handle

    def get(self, key: str) -> Handle[bytes | None]:
        """A string value (raw bytes), or None."""
        return self._add(("get", key), Handle())

    def hget(self, key: str, field: str) -> Handle[str | None]:
        """One hash field, or None."""
        return self._add(("hget", key, field), Handle())

    def hgetall(self, key: str) -> Handle[dict[str, str]]:
        """A whole hash (empty when missing)."""
        return self._add(("hgetall", key), Handle())

    def ztop(self, key: str, n: int) -> Handle[list[tuple[str, float]]]:
        """The ``n`` highest (member, score) pairs of a sorted set."""
        return self._add(("ztop", key, n), Handle())

    def zrank(self, key: str, member: str) -> Handle[int | None]:
        """A member's rank (0 = highest score), or None."""
        return self._add(("zrank", key, member), Handle())

    def zcard(self, key: str) -> Handle[int]:
        """How many members a sorted set has."""
        return self._add(("zcard", key), Handle())

    def game(self, gid: str) -> Handle[tuple[str | None, bytes | None]]:
        """A game's stored session by id, shaped like :meth:`game_via`: (gid, session or None)."""
        return self._add(("get", keys.game(gid)), Handle(lambda raw: (gid, raw)))

    def game_via(self, index: str, field: str) -> Handle[tuple[str | None, bytes | None]]:
        """The game id an index hash field names and that game's stored session, in the same trip."""
        return self._add(("via", index, field, keys.games_prefix(index), ""), Handle(_pair))

    def idem(self, platform: str, key: str | None, place: Place | None = None) -> Handle[bytes | None]:
        """The stored record of a command with idempotency key ``key`` (None: no key, or none kept); decode
        it with :func:`bot.service.once.decode_record`."""
        if not key:
            done: Handle[bytes | None] = Handle()
            done._fill(None)
            return done
        return self._add(("get", keys.idem(platform, key, place)), Handle())

    async def run(self, store: Store) -> None:
        """Send every read in one round trip and fill the handles (nothing is sent for an empty batch)."""
        if not self._requests:
            return
        answers = await store.read(self._requests)
        for handle, raw in zip(self._handles, answers, strict=True):
            handle._fill(raw)


def _pair(raw: Any) -> tuple[str | None, bytes | None]:
    found, value = raw
    return found, value


async def read_one(store: Store, make: Callable[[Reads], Handle[T]]) -> T:
    """A single typed read: ``await read_one(store, lambda r: r.hget(key, field))``."""
    reads = Reads()
    handle = make(reads)
    await reads.run(store)
    return handle.value

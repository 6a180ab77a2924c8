"""Leases that die with their holder: one holder at a time of a game's board or pings, across instances.

A lease is a versioned key (the version is the holder's random token) with a short TTL (:data:`LEASE_SECONDS`),
renewed every :data:`RENEW_SECONDS` by a heartbeat task for as long as the holder's block runs, a platform call
held in flight included. So a live holder keeps it however long the call takes, and a holder killed with
``kill -9`` stops renewing: its lease is free at most :data:`LEASE_SECONDS` later, and another instance (or the
restarted one) takes over. A holder that lost its lease anyway (the store stalled past the TTL) sees
:attr:`Lease.lost` and its writes carry :meth:`Lease.fence`, so they fail instead of racing the new holder.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Sequence

from bot.storage.base import Commit, Store

log = logging.getLogger(__name__)
LEASE_SECONDS = 4  # TTL of a lease: how long a dead holder keeps it at most (a whole number: Redis EX)
RENEW_SECONDS = 1.0  # the heartbeat: a renewal may be late by LEASE_SECONDS - RENEW_SECONDS before it is lost


class Lease:
    """A held lease: its key and token; renewed by :func:`hold` while held."""

    def __init__(self, store: Store, key: str, token: int, ttl: int) -> None:
        self.store = store
        self.key = key
        self.token = token
        self.ttl = ttl
        self.lost = False  # a renewal found another holder (or none): stop before the next platform call
        self.released = False  # released by the holder's last commit (see release_in): nothing left to release
        self.renewals = 0  # renewals made, for tests

    def fence(self, commit: Commit) -> Commit:
        """Make ``commit`` apply only while this lease is still held (its key still carries our token)."""
        return commit.expect(self.key, self.token)

    def release_in(self, commit: Commit) -> Commit:
        """Make ``commit`` (fenced) also release the lease; set :attr:`released` once it applied, so the end of
        :func:`hold` saves its own release round trip."""
        return self.fence(commit).delete(self.key)

    async def renew(self) -> bool:
        """Push the lease's expiry ahead; False (and :attr:`lost`) when it is no longer ours."""
        held = await self.store.commit(self.fence(Commit()).put_versioned(self.key, self.token, b"", self.ttl))
        if held:
            self.renewals += 1
        else:
            self.lost = True
        return held

    async def heartbeat(self, every: float) -> None:
        """Renew every ``every`` seconds until cancelled or lost (a store hiccup is retried at the next beat)."""
        while not self.lost:
            await asyncio.sleep(every)
            try:
                await self.renew()
            except Exception as exc:  # the store is away: the next beat tries again (the TTL allows a few)
                log.warning("renewing the lease %s failed (%s)", self.key, exc)


@contextlib.asynccontextmanager
async def hold(store: Store, key: str, *, ttl: int = LEASE_SECONDS, every: float = RENEW_SECONDS,
               expect: Sequence[tuple[str, int]] = ()) -> AsyncIterator[Lease | None]:
    """Take the lease ``key`` for the block (None when another holder has it, or when one of the versioned
    values ``expect`` names has moved on: both checked in the same commit, so the holder knows them without a
    read), renewed every ``every`` s while the block runs; released at its end (unless the block's last commit
    released it, :meth:`Lease.release_in`)."""
    token = secrets.randbelow(10**15) + 1
    taking = Commit().expect(key, 0)
    for other, version in expect:
        taking.expect(other, version)
    if not await store.commit(taking.put_versioned(key, token, b"", ttl)):
        yield None
        return
    lease = Lease(store, key, token, ttl)
    beat = asyncio.create_task(lease.heartbeat(every), name=f"lease:{key}")
    try:
        yield lease
    finally:
        beat.cancel()
        await asyncio.gather(beat, return_exceptions=True)
        if not lease.released:
            try:
                await store.commit(lease.fence(Commit()).delete(key))
            except Exception as exc:  # not released: it runs out within its TTL
                log.warning("releasing the lease %s failed (%s)", key, exc)

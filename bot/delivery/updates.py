"""Each platform update handled once across instances: a webhook update re-delivered (to the same or another
instance) while it is being handled, or after it was handled, is dropped instead of answered twice. An
instance that dies while handling one leaves only a short claim, so Telegram's next re-delivery runs it."""

from __future__ import annotations

from bot.service import keys
from bot.storage.base import Commit, Store

CLAIM_SECONDS = 30  # an update being handled; long enough for any command, short enough for a crash
DONE_SECONDS = 3600  # a handled update is remembered this long (Telegram re-delivers within hours at most)
_CLAIMED, _DONE = 1, 2


def update_key(platform: str, update_id: str) -> str:
    """String key (versioned, with a TTL): 1 = being handled, 2 = handled."""
    return f"{keys.PREFIX}:{{u:{platform}}}:upd:{update_id}"


class UpdateGate:
    """``claim`` before handling an update, ``done`` after; a second claim of the same update fails."""

    def __init__(self, store: Store, platform: str) -> None:
        self.store = store
        self.platform = platform

    async def claim(self, update_id: str) -> bool:
        """True for exactly one caller while the update is neither being handled nor handled."""
        key = update_key(self.platform, update_id)
        try:
            return await self.store.commit(Commit().expect(key, 0).put_versioned(key, _CLAIMED, b"", CLAIM_SECONDS))
        except Exception:  # the store is away: handle it (the commands' own idempotency still holds)
            return True

    async def done(self, update_id: str) -> None:
        """Remember the update as handled."""
        key = update_key(self.platform, update_id)
        try:
            await self.store.commit(Commit().put_versioned(key, _DONE, b"", DONE_SECONDS))
        except Exception:  # best effort: a re-delivery would then be answered from the idempotency record
            return

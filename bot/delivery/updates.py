"""Each platform update handled once across instances: a webhook update re-delivered (to the same or another
instance) while it is being handled, or after it was handled, is dropped instead of answered twice. An
instance that dies while handling one leaves only a short claim, so Telegram's next re-delivery runs it.
Claims are scoped by the bot's identity (``keys.update_claim``): two bots on one Redis see the same update ids."""

from __future__ import annotations

from bot.service import keys
from bot.storage.base import Commit, Store

CLAIM_SECONDS = 30  # an update being handled; long enough for any command, short enough for a crash
DONE_SECONDS = 3600  # a handled update is remembered this long (Telegram re-delivers within hours at most)
_CLAIMED, _DONE = 1, 2


class UpdateGate:
    """``claim`` before handling an update, ``done`` after; a second claim of the same bot's update fails."""

    def __init__(self, store: Store, platform: str, kind: str = "u") -> None:
        self.store = store
        self.platform = platform
        self.kind = kind  # the kind of platform id (``u``: a Telegram update id)

    def key(self, bot_id: object, update_id: object) -> str:
        """String key (versioned, with a TTL): 1 = being handled, 2 = handled."""
        return keys.update_claim(self.platform, bot_id, self.kind, update_id)

    async def claim(self, bot_id: object, update_id: object) -> bool:
        """True for exactly one caller while the bot's update is neither being handled nor handled."""
        key = self.key(bot_id, update_id)
        try:
            return await self.store.commit(Commit().expect(key, 0).put_versioned(key, _CLAIMED, b"", CLAIM_SECONDS))
        except Exception:  # the store is away: handle it (the commands' own idempotency still holds)
            return True

    async def done(self, bot_id: object, update_id: object) -> None:
        """Remember the bot's update as handled."""
        key = self.key(bot_id, update_id)
        try:
            await self.store.commit(Commit().put_versioned(key, _DONE, b"", DONE_SECONDS))
        except Exception:  # best effort: a re-delivery would then be answered from the idempotency record
            return

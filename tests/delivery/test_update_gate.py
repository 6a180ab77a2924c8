"""The update gate claims each platform update once per bot: two bots (two tokens) on one Redis that see the same
update id each handle their own; the same bot's re-delivery is dropped."""

from __future__ import annotations

from bot.chat.core import BotCore
from bot.delivery.updates import UpdateGate
from bot.service import keys


async def test_claims_are_scoped_by_bot(core: BotCore) -> None:
    gate = UpdateGate(core.store, "telegram")
    assert await gate.claim("111", 7)
    assert not await gate.claim("111", 7)  # the same bot's update, re-delivered while being handled
    assert await gate.claim("222", 7)  # another bot's update with the same id
    await gate.done("111", 7)
    assert not await gate.claim("111", 7)  # handled: still dropped
    assert gate.key("111", 7) == keys.update_claim("telegram", "111", "u", 7) != gate.key("222", 7)

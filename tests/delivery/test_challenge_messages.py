"""A challenge's message says how the challenge ended, however it ended: the commit that ends it writes an
outbox entry, and the consumer edits the stored message once (bot/delivery/challenges.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from bot.chat.buttons import decode
from bot.chat.core import BotCore
from bot.commands import intents as i
from bot.delivery import OutboxConsumer, RetryLater
from bot.service import keys
from bot.storage.base import Commit

from .conftest import Clock
from .kit import ALICE, BOB, GROUP, FakeSink, FakeSurface


@dataclass
class ChallengeSurface(FakeSurface):
    """A board surface that can also edit challenge messages."""

    challenge_edits: list[tuple[str, str]] = field(default_factory=list)

    async def edit_challenge(self, ref: str, text: str) -> bool:
        await self._call()
        if ref in self.gone:
            return False
        self.challenge_edits.append((ref, text))
        return True


async def _challenge(core: BotCore, ref: str) -> str:
    """Alice challenges Bob; the frontend posted the challenge as message ``ref``; the challenge id."""
    handled = await core.handle_text(ALICE, GROUP, "challenge @bob", mentions={"@bob": BOB})
    (reply,) = [r for r in handled.replies if r.buttons]
    await core.remember_challenge_message(reply, ref)
    accept = decode(reply.buttons[0].token)
    assert isinstance(accept, i.Accept) and accept.challenge_id is not None
    assert await core.store.read([("get", keys.challenge_message(accept.challenge_id))]) == [ref.encode()]
    return accept.challenge_id


def _consumer(core: BotCore, surface: ChallengeSurface) -> OutboxConsumer:
    return core.delivery("telegram", surface, FakeSink(), group="telegram:test", consumer="a")


async def test_text_accept_and_cancel_edit_the_challenge_message_once(core: BotCore) -> None:
    surface = ChallengeSurface()
    outbox = _consumer(core, surface)
    await outbox.start()
    cid = await _challenge(core, "-100:7")
    assert not any(r.error for r in (await core.handle_text(BOB, GROUP, "accept")).replies)  # typed, no button
    await outbox.drain()
    assert surface.challenge_edits == [("-100:7", "Challenge by alice: accepted by bob. The game is on.")]
    assert await core.store.read([("get", keys.challenge_message(cid))]) == [None]  # edited once: forgotten
    await core.handle_text(ALICE, GROUP, "resign yes")
    other = ChallengeSurface()
    await outbox.drain()
    await _challenge(core, "-100:8")
    await core.handle_text(ALICE, GROUP, "cancel")
    second = _consumer(core, other)
    await second.drain()
    await outbox.drain()
    assert surface.challenge_edits[1:] + other.challenge_edits == [("-100:8", "Challenge by alice: withdrawn.")]


async def test_an_expired_challenge_edits_its_message(core: BotCore, clock: Clock) -> None:
    surface = ChallengeSurface()
    outbox = _consumer(core, surface)
    await outbox.start()
    await _challenge(core, "-100:9")
    clock.offset += 601
    notices = await core.tick("telegram")
    assert notices  # the challenger is told, as before
    await outbox.drain()
    assert surface.challenge_edits == [("-100:9", "Challenge by alice: expired, nobody accepted it in time.")]


async def test_a_message_not_known_yet_is_retried_and_a_board_is_left_alone(core: BotCore) -> None:
    surface = ChallengeSurface()
    outbox = _consumer(core, surface)
    await outbox.start()
    await core.handle_text(ALICE, GROUP, "challenge @bob", mentions={"@bob": BOB})
    await core.handle_text(ALICE, GROUP, "cancel")
    entries = await core.store.consume(keys.outbox("telegram", keys.place_bucket(GROUP)), "telegram:test", "a", 10, 0)
    (entry,) = [e for e in entries if e[1].get("k") == b"challenge"]
    assert outbox.challenges is not None
    with pytest.raises(RetryLater):  # the frontend may still be posting it
        await outbox.challenges.handle(entry[1], age=1.0)
    assert await outbox.challenges.handle(entry[1], age=60.0)  # never known: dropped
    # a challenge message that became the game's board (Discord) is not overwritten
    await _challenge(core, "-100:11")
    await core.store.commit(Commit().put(keys.board_game("-100:11"), b"somegame"))
    await core.handle_text(BOB, GROUP, "accept")
    await outbox.drain()
    assert surface.challenge_edits == []

"""The Pinger sends each turn's ping once across instances (a lease and a recorded state), deletes the
previous one, keeps what it sent through a platform outage and sends the rest after it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.chat.core import BotCore
from bot.delivery import Outcome, Pinger, RetryLater
from bot.delivery.replies import Reply
from bot.service import Place, PlayerRef

from .kit import ALICE, BOB, play, start_game, stored_version


@dataclass
class PingLog:
    """A ping surface that records posts and deletions; ``outage`` refuses posts."""

    outage: bool = False
    posts: list[tuple[str, tuple[str, ...], str]] = field(default_factory=list)  # (ref, mentioned ids, text)
    deleted: list[str] = field(default_factory=list)
    direct: list[str] = field(default_factory=list)

    async def post_ping(self, place: Place, reply: Reply, board_ref: str | None) -> str | None:
        await asyncio.sleep(0.01)  # a platform round trip: lets a second instance try meanwhile
        if self.outage:
            raise RetryLater(0.01)
        ref = f"{place.channel_id}:p{len(self.posts) + 1}"
        self.posts.append((ref, tuple(p.user_id for p in reply.mention), reply.text))
        return ref

    async def delete_ping(self, ref: str) -> None:
        self.deleted.append(ref)

    async def direct_ping(self, player: PlayerRef, reply: Reply, board_ref: str | None) -> None:
        self.direct.append(player.user_id)


async def mover(core: BotCore, game: str) -> str:
    view = (await core.service.view_of(game)).view
    assert view is not None
    return view.players[view.turn].user_id


async def test_two_instances_ping_each_turn_once_and_delete_the_previous_ping(core: BotCore) -> None:
    game = await start_game(core)
    log = PingLog()
    one, two = Pinger(core.store, core.ping_plan, log), Pinger(core.store, core.ping_plan, log)
    for turn in range(4):
        version = await stored_version(core, game)
        outcomes = await asyncio.gather(one.ping(game, version), two.ping(game, version))
        assert sorted(o.value for o in outcomes) == sorted([Outcome.SHOWN.value, Outcome.CURRENT.value])
        assert len(log.posts) == turn + 1 and log.posts[-1][1] == (await mover(core, game),)
        assert log.deleted == [ref for ref, _, _ in log.posts[:-1]]  # only the newest ping stays
        assert await one.ping(game, version) is Outcome.CURRENT
        await play(core, 1)


async def test_an_outage_keeps_the_ping_pending_then_it_is_sent_once(core: BotCore) -> None:
    game = await start_game(core)
    log = PingLog(outage=True)
    pinger = Pinger(core.store, core.ping_plan, log)
    version = await stored_version(core, game)
    assert await pinger.ping(game, version) is Outcome.LATER
    assert log.posts == [] and (await pinger.state(game)).version < version
    log.outage = False
    assert await pinger.ping(game, version) is Outcome.SHOWN
    assert await pinger.ping(game, version) is Outcome.CURRENT and len(log.posts) == 1


async def test_ping_off_sends_nothing_and_ping_dm_sends_privately(core: BotCore) -> None:
    game = await start_game(core)
    first = await mover(core, game)
    player = ALICE if ALICE.user_id == first else BOB
    group = Place("telegram", "-100", "-100")
    await core.handle_text(player, group, "ping off")
    await core.handle_text(player, group, "ping dm on")
    log = PingLog()
    pinger = Pinger(core.store, core.ping_plan, log)
    assert await pinger.ping(game, await stored_version(core, game)) is Outcome.SHOWN
    assert log.posts == [] and log.direct == [first]

"""The board tracker converges the shown board to the stored version: one drawer, newest only, retries."""

from __future__ import annotations

import asyncio

from bot.chat.core import BotCore
from bot.delivery import BoardTracker, Outcome

from .kit import FakeSurface, play, start_game, stored_version


def tracker(core: BotCore, surface: FakeSurface) -> BoardTracker:
    return BoardTracker(core.store, core.board_reply, surface)


async def test_first_board_is_posted_then_edited_in_place_and_a_current_board_is_left_alone(core: BotCore) -> None:
    game = await start_game(core)
    surface = FakeSurface()
    boards = tracker(core, surface)
    assert await boards.converge(game) is Outcome.SHOWN
    assert len(surface.posts) == 1 and surface.edits == []
    assert await boards.converge(game) is Outcome.CURRENT
    await play(core, 2)
    assert await boards.converge(game) is Outcome.SHOWN
    version = await stored_version(core, game)
    assert surface.edits == [(surface.posts[0][0], version)]  # two changes coalesced into one edit
    assert await boards.shown(game) == (version, surface.posts[0][0])
    assert await core.board_message(game) == surface.posts[0][0]
    assert await core.game_for_board_message(surface.posts[0][0]) == game


async def test_a_storm_of_refusals_converges_once_the_platform_recovers(core: BotCore) -> None:
    game = await start_game(core)
    surface = FakeSurface()
    boards = tracker(core, surface)
    await boards.converge(game)
    await play(core, 1)
    surface.outage = True
    assert await boards.converge(game, budget=0.3) is Outcome.LATER
    assert surface.refused >= 1 and surface.edits == []

    async def recover() -> None:
        await asyncio.sleep(0.4)
        surface.outage = False

    recovery = asyncio.create_task(recover())
    await play(core, 1)  # piles up behind the outage
    started = asyncio.get_running_loop().time()
    assert await boards.converge(game, budget=10) is Outcome.SHOWN
    await recovery
    assert asyncio.get_running_loop().time() - started < 10
    assert [v for _, v in surface.edits] == [await stored_version(core, game)]  # the newest only, once


async def test_one_drawer_at_a_time_and_never_an_older_version_over_a_newer_one(core: BotCore) -> None:
    game = await start_game(core)
    surface = FakeSurface(delay=0.2)
    boards = tracker(core, surface)
    await boards.converge(game)
    await play(core, 1)
    outcomes = await asyncio.gather(*(boards.converge(game) for _ in range(5)))
    assert outcomes.count(Outcome.SHOWN) == 1 and outcomes.count(Outcome.BUSY) == 4
    assert surface.max_in_flight == 1
    newest = await stored_version(core, game)
    old_hint = (await core.board_reply(game))
    assert old_hint is not None
    await play(core, 1)
    assert await boards.converge(game, hint=old_hint[1]) is Outcome.SHOWN
    versions = [v for _, v in surface.edits]
    assert versions == sorted(versions) and versions[-1] == newest + 1


async def test_a_deleted_board_message_is_posted_afresh(core: BotCore) -> None:
    game = await start_game(core)
    surface = FakeSurface()
    boards = tracker(core, surface)
    await boards.converge(game)
    surface.gone.add(surface.posts[0][0])
    await play(core, 1)
    assert await boards.converge(game) is Outcome.SHOWN
    assert len(surface.posts) == 2
    assert await core.board_message(game) == surface.posts[1][0]
    assert await boards.converge("no-such-game") is Outcome.GONE

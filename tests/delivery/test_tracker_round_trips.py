"""The board tracker's round trips: a handler's board is shown with one read and two commits (the lease taken
with the board's and the game's versions checked, released with the record of what was shown), its outbox
entry then needs no round trip on the same instance and one read elsewhere, and every
race that used to be caught by reading again is still caught: a move stored while the board is drawn, a board
or game that moved between the read and the lease, an unreadable record."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from bot.chat.core import BotCore
from bot.delivery import BoardTracker, Outcome
from bot.service import keys
from bot.storage.base import Commit

from .kit import FakeSurface, play, start_game, stored_version


class Counted:
    """Counts the store's reads and commits (the round trips) while ``on`` is set."""

    def __init__(self, core: BotCore) -> None:
        self.reads = self.commits = 0
        self.on = False
        self.after_read: Callable[[], Awaitable[None]] | None = None  # run once, right after the next read
        read, commit = core.store.read, core.store.commit

        async def counted_read(requests: Any) -> list[Any]:
            answer = await read(requests)
            self.reads += self.on
            hook, self.after_read = self.after_read, None
            if hook is not None:
                await hook()
            return answer

        async def counted_commit(change: Commit) -> bool:
            self.commits += self.on
            return await commit(change)

        core.store.read = counted_read  # type: ignore[method-assign]
        core.store.commit = counted_commit  # type: ignore[method-assign]


async def lease_left(core: BotCore, game: str) -> bytes | None:
    return (await core.store.read([("get", keys.board_lease(game))]))[0]  # type: ignore[no-any-return]


async def test_a_handlers_board_takes_one_read_and_two_commits_and_leaves_no_lease(core: BotCore) -> None:
    game = await start_game(core)
    surface = FakeSurface()
    boards = BoardTracker(core.store, core.board_reply, surface)
    assert await boards.converge(game) is Outcome.SHOWN
    await play(core, 1)
    drawn = await core.board_reply(game)
    assert drawn is not None
    version = await stored_version(core, game)
    counted = Counted(core)
    counted.on = True
    assert await boards.show(game, version, hint=drawn[1], place=drawn[0]) is Outcome.SHOWN
    counted.on = False
    assert (counted.reads, counted.commits) == (1, 2)  # the state; the lease taken; the record + the release
    assert [v for _, v in surface.edits] == [version]
    assert (await boards.shown(game))[0] == version
    assert await lease_left(core, game) is None
    counted.on = True
    assert await boards.show(game, version) is Outcome.CURRENT  # its outbox entry, here: the tracker saw it shown
    assert (counted.reads, counted.commits) == (1, 2)
    other = BoardTracker(core.store, core.board_reply, FakeSurface())  # another instance: one cheap read
    assert await other.show(game, version) is Outcome.CURRENT
    assert (counted.reads, counted.commits) == (2, 2)


async def test_a_move_stored_while_its_board_is_drawn_is_drawn_next(core: BotCore) -> None:
    game = await start_game(core)
    surface = FakeSurface()
    boards = BoardTracker(core.store, core.board_reply, surface)
    await boards.converge(game)
    await play(core, 1)
    first = await stored_version(core, game)
    surface.delay = 0.3
    drawing = asyncio.create_task(boards.converge(game))
    await asyncio.sleep(0.1)  # the edit of ``first`` is in flight: a move is stored meanwhile
    await play(core, 1)
    newest = await stored_version(core, game)
    assert newest > first
    assert await drawing is Outcome.SHOWN
    assert [v for _, v in surface.edits] == [first, newest]  # the drawn one recorded, then the newer drawn
    assert (await boards.shown(game))[0] == newest
    assert await lease_left(core, game) is None


async def test_a_game_that_moved_between_the_read_and_the_lease_is_read_again(core: BotCore) -> None:
    game = await start_game(core)
    surface = FakeSurface()
    boards = BoardTracker(core.store, core.board_reply, surface)
    await boards.converge(game)
    await play(core, 1)
    version = await stored_version(core, game)
    counted = Counted(core)

    async def move() -> None:
        await play(core, 1)

    counted.after_read = move  # the move lands right after the tracker's read, before its lease is taken
    assert await boards.show(game, version) is Outcome.SHOWN
    newest = await stored_version(core, game)
    assert newest > version
    assert [v for _, v in surface.edits] == [newest]  # the stale state was never drawn
    assert (await boards.shown(game))[0] == newest
    assert await lease_left(core, game) is None


async def test_an_unreadable_shown_record_makes_no_platform_call(core: BotCore) -> None:
    game = await start_game(core)
    surface = FakeSurface()
    boards = BoardTracker(core.store, core.board_reply, surface)
    await boards.converge(game)
    await play(core, 1)
    assert await core.store.commit(Commit().put(keys.board_shown(game), b"not a version"))
    assert await boards.converge(game) is Outcome.BUSY  # left to a retry; never a post that cannot be recorded
    assert len(surface.posts) == 1 and surface.edits == []
    assert await lease_left(core, game) is None

"""Each place's budget (bot/delivery/budgets.py): calls spaced so that no window holds more than the limit (as
the stand-ins count it), boards before pings and notices, places independent, and board versions stored while
the tracker waits for the budget collapsed into one edit of the newest."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from bot.chat.core import BotCore
from bot.delivery import BoardTracker, Outcome
from bot.delivery.budgets import PlaceBudgets
from bot.service import Place
from tests.fakes.budget import Budget

from .kit import FakeSurface, play, start_game, stored_version


async def test_calls_never_exceed_the_platforms_window() -> None:
    budgets, platform = PlaceBudgets(4, 0.4), Budget(4, 0.4)
    started = time.monotonic()
    for n in range(10):
        await budgets.take("-100", urgent=n % 2 == 0)
        assert platform.take("-100") is None, n  # the stand-in's sliding window never refuses
    assert time.monotonic() - started >= 9 * 0.1  # evenly spaced, not in bursts
    assert budgets.calls("-100") == 10


async def test_places_have_their_own_budgets() -> None:
    budgets = PlaceBudgets(2, 1.0)
    await budgets.take("-1", urgent=True)
    started = time.monotonic()
    await asyncio.wait_for(budgets.take("-2", urgent=False), 0.1)  # another group: no wait
    assert time.monotonic() - started < 0.1


async def test_a_board_goes_before_a_ping_that_was_waiting_longer() -> None:
    budgets = PlaceBudgets(1, 0.3)
    await budgets.take("-100", urgent=True)  # the place is out of room for 0.3 s
    order: list[str] = []

    async def call(kind: str, urgent: bool) -> None:
        await budgets.take("-100", urgent=urgent)
        order.append(kind)

    ping = asyncio.create_task(call("ping", False))
    await asyncio.sleep(0.05)
    notice = asyncio.create_task(call("notice", False))
    await asyncio.sleep(0.05)
    board = asyncio.create_task(call("board", True))  # came last, goes first
    await asyncio.gather(ping, notice, board)
    assert order[0] == "board" and sorted(order[1:]) == ["notice", "ping"]


@dataclass
class PacedSurface(FakeSurface):
    """The delivery kit's surface with a place budget (as the Telegram and Discord surfaces have)."""

    budgets: PlaceBudgets = field(default_factory=lambda: PlaceBudgets(1, 0.5))
    paced: int = 0

    async def pace(self, place: Place, ref: str | None, *, urgent: bool) -> None:
        self.paced += 1
        await self.budgets.take(place.channel_id, urgent=urgent)


async def test_versions_stored_while_waiting_for_the_budget_collapse_into_one_edit(core: BotCore) -> None:
    game = await start_game(core)
    surface = PacedSurface()
    tracker = BoardTracker(core.store, core.board_reply, surface)
    assert await tracker.converge(game) is Outcome.SHOWN  # posted; the group is now out of room for 0.5 s
    shown = surface.versions()
    await play(core, 1)
    drawing = asyncio.create_task(tracker.converge(game))
    await asyncio.sleep(0.1)  # the tracker waits for the budget; two more moves are stored meanwhile
    assert await play(core, 2) == 2
    assert await drawing is Outcome.SHOWN
    assert surface.versions() == [*shown, await stored_version(core, game)]  # one edit, of the newest
    assert (await tracker.shown(game))[0] == await stored_version(core, game)

"""A tournament match's final board, through the real discord.py stack: it offers no Rematch button (the event
pairs its players; a rematch would be an extra match nobody scheduled), and a typed ``rematch`` after it is
refused with a message saying why, nothing started."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import PlayerRef
from tests.fakes.discord import FakeDiscord

from .conftest import World
from .playing import place_ref, take_turn_by_slash
from .test_rematch import new_board
from .test_tournament import said

pytestmark = pytest.mark.timeout(90)


async def test_a_tournament_match_ends_without_a_rematch(fake: FakeDiscord, bot: Any, core: Any,
                                                         world: World) -> None:
    w = world

    async def line(member: Any, text: str) -> Any:
        sent = await fake.send_message(member, w.general, f"!fevga {text}")
        return await fake.wait_for_message(w.general, lambda m: m.author.bot, after=sent.id)

    assert "is open" in said(await line(w.alice, "tournament create swiss rounds 1"))
    for member in (w.alice, w.bob):
        await line(member, "tournament join")
    mark = (await fake.send_message(w.alice, w.general, "!fevga tournament start")).id
    await fake.wait_for_message(w.general, lambda m: "Round 1:" in said(m), after=mark, timeout=20)
    board = await fake.wait_for(lambda: new_board(fake, w, mark), 20.0, "the match's board")
    moved: set[int] = set()
    for _ in range(6):
        for member in (w.alice, w.bob):
            if len(moved) < 2 and await take_turn_by_slash(core, fake, w.general, member):
                moved.add(member.id)
    resign = next(c for c in board.custom_ids() if c.startswith("fv:resign:"))
    prompt = await (await fake.press_button(w.alice, board, resign)).original()
    await (await fake.press_button(w.alice, prompt, prompt.custom_ids()[0])).response()  # yes (a 1-point match)
    await fake.wait_for(lambda: not any(c.startswith(("fv:resign:", "fvs:")) for c in board.custom_ids()) or None,
                        10.0, "the final board")
    assert not [c for c in board.custom_ids() if c.startswith("fv:rematch:")]  # no Rematch under it

    refused = await line(w.bob, "rematch")
    assert "tournament match" in said(refused) and "not rematched" in said(refused)
    view = (await core.service.board(PlayerRef("discord", str(w.bob.id), "bob"), place_ref(w.general))).view
    assert view is None or view.status != "play"  # no new match started
    assert not fake.failed_calls()

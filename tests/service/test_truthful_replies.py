"""Drawing a saved result can fail without the reply claiming that nothing changed."""

from __future__ import annotations

import random

import pytest

import bot.chat.draw_pool
from bot.chat.core import BotCore
from bot.i18n import translate
from bot.service.ai import RandomAI
from bot.storage import MemoryStore
from fevga import format_play

from .conftest import ALICE, BOB, HERE, FakeClock
from .helpers import random_play


async def test_a_drawing_failure_after_a_move_still_says_it_was_played(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    core = await BotCore.create(store=MemoryStore(clock), clock=clock, ai=RandomAI(seed=1))
    await core.service.challenge(ALICE, HERE, BOB)
    started = await core.service.accept(BOB, HERE)
    assert started.view is not None
    view = started.view
    text = format_play(random_play(view, random.Random(3)))

    def broken(*args: object) -> bytes:
        raise RuntimeError("renderer exploded")

    monkeypatch.setattr(bot.chat.draw_pool, "render_board", broken)  # drawn in a thread (no pool here)
    handled = await core.handle_text(view.players[view.turn], HERE, text)
    unchanged = translate("internal_error_unchanged", "en")
    assert handled.replies and all(unchanged not in r.text for r in handled.replies)
    assert all("nothing was changed" not in r.text for r in handled.replies)
    assert any(view.players[view.turn].name in r.text and not r.error for r in handled.replies)
    board = await core.service.board(ALICE, HERE)
    assert board.view is not None and board.view.version == view.version + 1  # it was saved
    await core.close()


def test_internal_error_does_not_claim_nothing_changed() -> None:
    for lang in ("en", "el"):
        assert translate("internal_error", lang) != translate("internal_error_unchanged", lang)
    assert "nothing was changed" not in translate("internal_error", "en")

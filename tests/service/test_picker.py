"""The whole-play picker: one button per play when a roll allows at most five, tapped like the typed play;
step buttons and captions read ``off`` for bearing off."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.chat.buttons import decode
from bot.chat.presenter import button, caption, dice_used, steps_text
from bot.commands import intents as i
from bot.commands.executor import execute
from bot.service import GameService
from bot.service.models import GameView, PlayerRef, Result
from bot.service.views import PICKER_MAX
from fevga import format_play, legal_plays

from .conftest import ALICE, BOB, HERE
from .helpers import mover_position, random_play, start_game


def _plays(result: Result) -> list[str]:
    return [str(a.payload["play"]) for a in result.actions if a.kind == "play"]


async def test_the_picker_offers_every_play_when_there_are_few_and_none_when_many(service: GameService) -> None:
    result = await start_game(service, ALICE, BOB, HERE)
    rng = random.Random(5)
    seen_few = seen_many = seen_off = 0
    while result.view is not None and result.view.status == "play":
        view = result.view
        assert view.dice is not None
        expected = [format_play(p) for p in legal_plays(mover_position(view), view.dice)]
        offered = _plays(result)
        if len(expected) <= PICKER_MAX:
            assert sorted(offered) == sorted(expected)
            seen_few += 1
        else:
            assert offered == []
            seen_many += 1
        for action in result.actions:
            if action.kind == "step" and action.payload["from_point"] + action.payload["die"] >= 25:
                assert action.payload["to"] == "off"
                assert button(action, "en").label.startswith(f"{action.payload['from_point']}→off")
                seen_off += 1
            if action.kind == "play":
                pressed = decode(button(action, "en").token)
                assert pressed == i.Move(str(action.payload["play"]), view.game_id, view.version)
        who = view.players[view.turn]
        result = await service.move(who, HERE, format_play(random_play(view, rng)), game_id=view.game_id)
        assert result.ok, result.messages
    assert seen_few and seen_many and seen_off


async def test_a_tap_plays_the_move_once_and_an_old_board_is_refused(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    view = started.view
    assert view is not None
    mover = view.players[view.turn]
    plays = [a for a in started.actions if a.kind == "play"]
    assert plays, "an opening roll of Fevga allows only a few plays"
    intent = decode(button(plays[-1], "en").token)
    assert isinstance(intent, i.Move)
    done = await execute(service, mover, HERE, intent, idem="tap-1")
    assert done.ok and done.view is not None and done.view.version == view.version + 1
    assert done.messages[0].key == "played" and done.messages[0].args["play"] == plays[-1].payload["play"]
    again = await execute(service, mover, HERE, intent, idem="tap-2")  # the same button, now stale
    assert not again.ok
    after = await service.board(mover, HERE)
    assert after.view is not None and after.view.version == done.view.version


async def test_no_picker_while_steps_are_pending_and_the_caption_lists_them(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    view = started.view
    assert view is not None
    mover = view.players[view.turn]
    first = next(a for a in started.actions if a.kind == "step")
    stepped = await service.step(mover, HERE, view.game_id, view.version, first.payload["from_point"],
                                 first.payload["die"])
    assert stepped.ok and stepped.view is not None
    assert _plays(stepped) == []
    (a, b), = stepped.view.pending
    line = caption(stepped.view, "en")
    assert f"{a}→{b} — choose the next step" in line or f"{a}→{b} — confirm" in line
    assert f"{a}→{b} — " in caption(stepped.view, "el") and "βήμα" in caption(stepped.view, "el")


def test_bear_off_steps_read_off_in_captions_and_the_used_dice_are_derived() -> None:
    assert steps_text(((20, 25), (19, 23))) == "20→off, 19→23"
    players = (PlayerRef("telegram", "1", "Ana"), PlayerRef("telegram", "2", "Νίκος"))
    view = GameView(game_id="g", version=3, position_id="", turn=0, dice=(6, 4), players=players,
                    pending=((20, 25),), dice_left=(4,), status="play")
    assert dice_used(view) == (6,)
    line = caption(view, "en")
    assert line.endswith("20→off — choose the next step")
    done = replace(view, pending=((20, 25), (21, 25)), dice_left=(), pending_complete=True)
    assert caption(done, "el").endswith("20→off, 21→off — επιβεβαίωσε ή αναίρεσε ένα βήμα")
    double = replace(view, dice=(3, 3), pending=((1, 4), (4, 7), (7, 10)), dice_left=(3,))
    assert dice_used(double) == (3, 3, 3)

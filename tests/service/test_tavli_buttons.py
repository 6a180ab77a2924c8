"""Portes and Plakoto played by buttons only: step buttons (from the bar, hits and pins marked on the
label), whole-play picks and confirm, each pressed as its token decodes (bot.chat.buttons), to the end."""

from __future__ import annotations

import random

import pytest

from bot.chat.buttons import decode
from bot.chat.presenter import button
from bot.commands.executor import execute
from bot.service import GameService, Result
from bot.service.button_kinds import ButtonKind
from bot.service.play_codes import play_code, play_text

from .conftest import ALICE, BOB, HERE


def test_play_codes_carry_the_bar_and_hits() -> None:
    assert play_text(play_code([(0, 3), (13, 18)], [True, False])) == "bar/3* 13/18"
    assert play_text(play_code([(1, 7), (7, 12)])) == "1/7 7/12"  # Fevga's codes are unchanged
    assert play_text("0025") is None or play_text("0025") == "bar/off"
    assert play_text("1375") is None  # a hit on bearing off is no play


async def _press(service: GameService, result: Result, kind: ButtonKind, rng: random.Random) -> Result:
    """Press one button of ``kind`` (chosen at random) as its token decodes, for the player to move."""
    view = result.view
    assert view is not None
    chosen = rng.choice([a for a in result.actions if a.kind == kind])
    intent = decode(button(chosen, "en").token)
    assert intent is not None, chosen
    answer = await execute(service, view.players[view.turn], HERE, intent)
    assert answer.ok, (chosen, answer.messages)
    return answer


@pytest.mark.parametrize(("kind", "seed"), [("portes", 11), ("plakoto", 12)])
async def test_a_game_by_buttons(service: GameService, kind: str, seed: int) -> None:
    """Whole games by buttons until a hit (or pin) and, in Portes, an entry from the bar were pressed as marked
    steps (the dice are the service's own: one game may have neither; five without both would be a bug)."""
    rng = random.Random(seed)
    marked = {"bar": 0, "hit": 0}
    for _ in range(5):
        await _a_game_by_buttons(service, kind, rng, marked)
        if marked["hit"] and (marked["bar"] or kind != "portes"):
            break
    assert marked["hit"] > 0
    if kind == "portes":
        assert marked["bar"] > 0


async def _a_game_by_buttons(service: GameService, kind: str, rng: random.Random, marked: dict[str, int]) -> None:
    """One game from challenge to end by random buttons; counts the marked steps pressed in ``marked``."""
    assert (await service.challenge(ALICE, HERE, BOB, kind=kind)).ok
    result = await service.accept(BOB, HERE)
    turns = 0
    while result.view is not None and result.view.status == "play":
        kinds = {a.kind for a in result.actions}
        if ButtonKind.PLAY in kinds and rng.random() < 0.5:
            result = await _press(service, result, ButtonKind.PLAY, rng)
        elif ButtonKind.STEP in kinds:
            hit_pressed = False
            while ButtonKind.CONFIRM not in {a.kind for a in result.actions}:
                view = result.view
                assert view is not None
                steps = [a for a in result.actions if a.kind == ButtonKind.STEP]
                chosen = rng.choice(steps)
                label = button(chosen, "en").label
                if chosen.payload["from_point"] == 0:
                    assert label.startswith("bar→") and kind == "portes"
                    marked["bar"] += 1
                if chosen.label_key.endswith(("_hit", "_pin")):
                    assert "*" in label and (" hit " in label) == (kind == "portes")
                    hit_pressed = True
                    marked["hit"] += 1
                intent = decode(button(chosen, "en").token)
                assert intent is not None
                result = await execute(service, view.players[view.turn], HERE, intent)
                assert result.ok, result.messages
            played = await _press(service, result, ButtonKind.CONFIRM, rng)
            text = next(m.args["play"] for m in played.messages if m.key == "played")
            if kind == "portes":  # a marked step hit (a hit stays a hit: the opponent's bar), an unmarked one did not
                assert ("*" in text) == hit_pressed
            # (Plakoto: a pin on the way is freed when the pinner moves on, and the canonical order of the
            # same play may pin on another landing, so the text alone does not show which step pinned)
            result = played
        else:  # a forced pass or the AI: nothing to press (cannot happen between two people mid-turn)
            pytest.fail(f"no button to play with: {kinds}")
        turns += 1
        assert turns < 1000
    assert result.view is not None and result.view.status == "done"


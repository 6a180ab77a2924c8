"""Helpers for driving games through the service in tests."""

from __future__ import annotations

import random

from bot.service import GameService, GameView, Msg, Place, PlayerRef, Result
from fevga import Play, Position, format_play, legal_plays
from fevga.variants import any_position_from_id


def mover_position(view: GameView) -> Position:
    """The position from the view of the player to move (of any game: Portes and Plakoto ids name theirs)."""
    pos = any_position_from_id(view.position_id)
    return pos if view.turn == 0 else pos.flip()


def random_play(view: GameView, rng: random.Random) -> Play:
    assert view.dice is not None
    return rng.choice(legal_plays(mover_position(view), view.dice))


async def start_game(service: GameService, a: PlayerRef, b: PlayerRef, place: Place, length: int = 1) -> Result:
    made = await service.challenge(a, place, b, length=length)
    assert made.ok, made.messages
    started = await service.accept(b, place)
    assert started.ok, started.messages
    assert started.view is not None
    return started


async def play_out(service: GameService, result: Result, place: Place, rng: random.Random,
                   max_turns: int = 3000, messages: list[Msg] | None = None) -> tuple[Result, int]:
    """Play random legal plays (as text) until the match is over; returns the last result and turns played.
    Every message shown on the way is appended to ``messages``."""
    turns = 0
    if messages is not None:
        messages.extend(result.messages)
    while result.view is not None and result.view.status == "play":
        view = result.view
        who = view.players[view.turn]
        result = await service.move(who, place, format_play(random_play(view, rng)), game_id=view.game_id)
        assert result.ok, result.messages
        if messages is not None:
            messages.extend(result.messages)
        turns += 1
        assert turns < max_turns
    return result, turns


async def until_both_moved(service: GameService, result: Result, place: Place, rng: random.Random) -> Result:
    """Play random legal plays until both players have made one (a rated result is possible from then on:
    the abort button is gone)."""
    for _ in range(20):
        if not any(a.kind == "abort" for a in result.actions):
            return result
        view = result.view
        assert view is not None and view.status == "play"
        result = await service.move(view.players[view.turn], place, format_play(random_play(view, rng)),
                                    game_id=view.game_id)
        assert result.ok, result.messages
    raise AssertionError("both players should have moved by now")

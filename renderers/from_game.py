"""Scenes from a ``fevga.Game``: the current board, and one scene per turn for the replay.

Only bookkeeping: the recorded steps are re-applied with ``fevga.play.apply_steps``; no rules
are judged here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from fevga import Game, Position
from fevga.play import apply_steps

from .scene import DEFAULT_THEME, BoardScene


def scene_from_game(
    game: Game,
    names: Sequence[str],
    *,
    match_length: int = 1,
    score: Sequence[int] = (0, 0),
    theme: str = DEFAULT_THEME,
) -> BoardScene:
    """The scene of ``game`` as it stands: position, turn and dice, last play, result."""
    last = game.last_play
    outcome = game.outcome
    return BoardScene(
        position=game.view(0),
        turn=None if outcome is not None else game.turn,
        dice=None if outcome is not None else game.dice,
        names=(str(names[0]), str(names[1])),
        last_play_steps=last.steps if last else (),
        last_mover=last.player if last else None,
        match_length=match_length,
        score=(int(score[0]), int(score[1])),
        winner=outcome.winner if outcome else None,
        mars=bool(outcome and outcome.mars),
        theme=theme,
    )


def replay_scenes(
    game: Game,
    names: Sequence[str],
    *,
    match_length: int = 1,
    score: Sequence[int] = (0, 0),
    theme: str = DEFAULT_THEME,
) -> list[BoardScene]:
    """The start, then the board after every turn of ``game.history`` (forced passes included)."""
    records = game.history
    first = records[0] if records else None
    template = BoardScene(
        Position.start(),  # player 0's view
        turn=first.player if first else game.turn,
        dice=first.dice if first else game.dice,
        names=(str(names[0]), str(names[1])),
        match_length=match_length,
        score=(int(score[0]), int(score[1])),
        theme=theme,
    )
    scenes = [template]
    position = template.position
    for index, record in enumerate(records):
        view = position if record.player == 0 else position.flip()
        moved = apply_steps(view, record.steps)
        position = moved if record.player == 0 else moved.flip()
        following = records[index + 1] if index + 1 < len(records) else None
        outcome = game.outcome if following is None else None
        if following is not None:
            turn, dice = following.player, following.dice
        elif outcome is not None:
            turn, dice = None, None
        else:
            turn, dice = game.turn, game.dice
        scenes.append(
            replace(
                template,
                position=position,
                turn=turn,
                dice=dice,
                last_play_steps=record.steps,
                last_mover=record.player,
                winner=outcome.winner if outcome else None,
                mars=bool(outcome and outcome.mars),
            )
        )
    outcome = game.outcome
    if outcome is not None and scenes[-1].winner is None:  # resigned before any play
        scenes.append(replace(scenes[-1], turn=None, dice=None, winner=outcome.winner, mars=outcome.mars))
    return scenes

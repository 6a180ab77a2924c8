"""Scenes from a ``fevga.Game`` of any kind (Fevga, Portes, Plakoto) or a ``fevga.Match``: the current
board, and one scene per turn for the replay.

Only bookkeeping: the recorded steps are re-applied (``fevga.play.apply_steps`` for Fevga, the game's
own step rule for Portes and Plakoto, so hits and pins land as they did); no legality is judged here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from fevga import Game, Match, Position
from fevga.board import Outcome
from fevga.play import Step, apply_steps
from fevga.variants import TavliPosition, start_position
from fevga.variants.tavli import replay

from .scene import DEFAULT_THEME, BoardScene


def scene_from_game(
    game: Game,
    names: Sequence[str],
    *,
    match_length: int = 1,
    score: Sequence[int] = (0, 0),
    theme: str = DEFAULT_THEME,
    match_kind: str = "",
    game_number: int = 0,
) -> BoardScene:
    """The scene of ``game`` as it stands: position, turn and dice, last play (with its hits), result.

    ``match_kind`` ("tavli" for the rotation) and ``game_number`` (from 1) feed the match line."""
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
        theme=theme,
        last_play_hits=last.hits if last else (),
        match_kind=match_kind if match_kind != game.game else "",
        game_number=game_number,
        **result_fields(outcome),
    )


def scene_from_match(match: Match, names: Sequence[str], *, theme: str = DEFAULT_THEME) -> BoardScene:
    """The scene of the match's current (or last) game, with the score before it and its place in the match."""
    game = match.game
    before = [0, 0]
    for earlier in match.games[:-1]:
        if earlier.outcome is not None and earlier.outcome.winner is not None:
            before[earlier.outcome.winner] += earlier.outcome.points
    return scene_from_game(
        game,
        names,
        match_length=match.length,
        score=before,
        theme=theme,
        match_kind=match.kind,
        game_number=len(match.games),
    )


def replay_scenes(
    game: Game,
    names: Sequence[str],
    *,
    match_length: int = 1,
    score: Sequence[int] = (0, 0),
    theme: str = DEFAULT_THEME,
    match_kind: str = "",
    game_number: int = 0,
) -> list[BoardScene]:
    """The start, then the board after every turn of ``game.history`` (forced passes included)."""
    records = game.history
    first = records[0] if records else None
    template = BoardScene(
        start_position(game.game) if game.game != "fevga" else Position.start(),  # player 0's view
        turn=first.player if first else game.turn,
        dice=first.dice if first else game.dice,
        names=(str(names[0]), str(names[1])),
        match_length=match_length,
        score=(int(score[0]), int(score[1])),
        theme=theme,
        match_kind=match_kind if match_kind != game.game else "",
        game_number=game_number,
    )
    scenes = [template]
    position = template.position
    for index, record in enumerate(records):
        view = position if record.player == 0 else position.flip()
        moved = _apply(view, record.steps, record.dice)
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
                last_play_hits=record.hits,
                **result_fields(outcome),
            )
        )
    outcome = game.outcome
    if outcome is not None and scenes[-1].winner is None and not scenes[-1].drawn:  # resigned before any play
        scenes.append(
            replace(scenes[-1], turn=None, dice=None, **result_fields(outcome))
        )
    return scenes


def _apply(view: Position, steps: tuple[Step, ...], dice: tuple[int, int]) -> Position:
    """The mover's view after ``steps``: Fevga moves checkers, Portes/Plakoto replay their hits and pins."""
    if isinstance(view, TavliPosition):
        return replay(view, steps, dice)[0] if steps else view
    return apply_steps(view, steps)


def result_fields(outcome: Outcome | None) -> dict[str, Any]:
    """A scene's fields for how its game ended (none yet: no winner): a resignation is said as one, never as
    the mars its points might suggest."""
    if outcome is None:
        return {"winner": None, "mars": False, "mother": False, "drawn": False, "resigned": False, "points": 0}
    return {"winner": outcome.winner, "mars": outcome.mars and not outcome.resigned, "mother": outcome.by_mother,
            "drawn": outcome.is_draw, "resigned": outcome.resigned and outcome.winner is not None,
            "points": min(outcome.points, 3)}

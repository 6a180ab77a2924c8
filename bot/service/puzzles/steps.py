"""Answering a puzzle with step buttons: one button per (from point, die) the roll allows, built step by step
as a game's board is (``fevga.builder.step_options``, the same builder), then answered as the typed play.

A player's pending steps travel in his buttons' tokens (``bot.chat.buttons.encode_puzzle``), never in the store:
two players building at once each hold their own, and nothing is left behind when one stops halfway. The
buttons under the puzzle's post are everyone's (owner empty); the ones a press answers with are the presser's.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.button_kinds import ButtonKind
from bot.service.models import Action
from bot.service.play_codes import steps_code
from bot.service.views import step_label
from fevga.builder import step_options
from fevga.builder_state import StepState
from fevga.puzzles import Puzzle, ordered_plays
from fevga.rules import OFF
from fevga.variants import default_rules, game_of

Path = tuple[tuple[int, int], ...]


def builder(puzzle: Puzzle, path: Sequence[tuple[int, int]]) -> StepState:
    """The step builder of the puzzle after the clicked ``path``; IllegalStepError when no legal play uses it."""
    position = puzzle.start()
    plays = ordered_plays(position, puzzle.dice)
    return step_options(position, puzzle.dice, default_rules(game_of(position)), plays, list(path))


def step_actions(puzzle: Puzzle, pid: str, owner: str, path: Path = ()) -> list[Action]:
    """The buttons of the builder after ``path``: each next step (the path so far and it, in its token) and,
    once a step is taken, undo (the path without its last step)."""
    state = builder(puzzle, path)
    out: list[Action] = []
    for point, dice in sorted(state.options.items()):
        for die in dice:
            to = point + die if point + die < OFF else "off"
            out.append(Action(ButtonKind.STEP, pid, 0, step_label(puzzle.game, point, die, state.hitting),
                              {"from_point": point, "die": die, "to": to, "owner": owner,
                               "puzzle": steps_code((*path, (point, die)))}))
    if path:
        out.append(Action(ButtonKind.UNDO, pid, 0, "btn_undo", {"owner": owner, "puzzle": steps_code(path[:-1])}))
    return out

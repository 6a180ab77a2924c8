"""The engine's step builder (Board.step_options), canonical step order, parsing on the Board's
cache, Game.last_play and Game.resign_points."""

from __future__ import annotations

import itertools
import random

import pytest

import fevga.board
from fevga import (
    Board,
    FixedDice,
    Game,
    IllegalStepError,
    Play,
    Position,
    RandomDice,
    Rules,
    format_play,
    legal_plays,
    step_options,
)
from fevga.steps import apply_step, die_of

from .positions import pos

VARIANTS = (Rules(), Rules(unlock_point=14, strict_start_quarter=True))


def _valid_sequence(start: Position, steps: tuple[tuple[int, int], ...], dice: tuple[int, int], rules: Rules) -> bool:
    """Can the steps be played one after another, each legal when it is played?"""
    board = list(start.board)
    off = start.me_off
    for src, dst in steps:
        moved = apply_step(board, off, src - 1, die_of((src, dst), dice), rules)
        if isinstance(moved, int) or moved[0] != dst:
            return False
        off = moved[1]
    return True


def _reachable(board: Board, dice: tuple[int, int]) -> set[Position]:
    """Every result the builder can reach by clicking its offered steps."""
    reached: set[Position] = set()
    stack: list[list[tuple[int, int]]] = [[]]
    while stack:
        pending = stack.pop()
        state = board.step_options(dice, pending)
        if state.play is not None:
            assert not state.options and len(state.steps) == len(pending)
            reached.add(state.play.result)
            continue
        assert state.options, f"a dead end after {pending}"
        for point, dice_here in state.options.items():
            stack.extend([*pending, (point, die)] for die in dice_here)
    return reached


@pytest.mark.parametrize("rules", VARIANTS)
def test_the_builder_reaches_exactly_the_legal_plays(rules: Rules) -> None:
    rng = random.Random(7)
    game = Game.new(rules=rules, dice=RandomDice(7))
    for _ in range(50):
        if game.is_over():
            break
        assert game.dice is not None
        legal = game.legal_plays()
        assert _reachable(game.board, game.dice) == {p.result for p in legal}
        game.play(rng.choice(legal))


def test_the_builder_state_after_steps_and_its_errors() -> None:
    start = Position.start()
    state = Board(start).step_options((6, 5), [])
    assert state.steps == () and state.dice_left == (6, 5) and state.play is None
    assert state.options == {1: [5, 6]}
    state = Board(start).step_options((6, 5), [(1, 6)])
    assert state.steps == ((1, 7),) and state.dice_left == (5,) and state.options == {7: [5]}
    done = Board(start).step_options((6, 5), [(1, 6), (7, 5)])
    assert done.play is not None and format_play(done.play) == "1/7 7/12" and done.options == {}
    with pytest.raises(IllegalStepError) as info:
        Board(start).step_options((6, 5), [(1, 6), (1, 5)])  # the runner lock: 1/6 can't follow
    assert info.value.key == "bad_step" and info.value.args_map == {"point": 1, "die": 5}
    for bad in ([(1, 4)], [(2, 6)], [(0, 6)], [(1, 6), (7, 5), (12, 5)]):
        with pytest.raises(IllegalStepError):
            Board(start).step_options((6, 5), bad)


def test_the_function_form_matches_the_board_and_a_pass_has_no_steps() -> None:
    position = pos({13: 1, 14: 2, 15: 3, 16: 3, 17: 3, 18: 3}, {8: 3, 9: 3, 10: 3, 11: 3, 12: 3})
    plays = legal_plays(position, (6, 6))
    assert plays[0].is_pass
    empty = step_options(position, (6, 6), Rules(), plays, [])
    assert empty.steps == () and empty.options == {} and empty.play is None
    start = Position.start()
    assert step_options(start, (4, 4), Rules(), legal_plays(start, (4, 4)), [(1, 4)]) == Board(
        start
    ).step_options((4, 4), [(1, 4)])


@pytest.mark.parametrize("rules", VARIANTS)
def test_steps_read_in_the_smallest_valid_order(rules: Rules) -> None:
    rng = random.Random(3)
    for seed in range(6):
        game = Game.new(rules=rules, dice=RandomDice(seed))
        while not game.is_over():
            for play in game.legal_plays():
                orders = sorted(set(itertools.permutations(play.steps)))
                valid = [o for o in orders if _valid_sequence(play.start, o, play.dice, rules)]
                assert valid and play.steps == valid[0]
            game.play(rng.choice(game.legal_plays()))


def test_the_same_play_typed_in_any_order_prints_one_text() -> None:
    start = Position.start()
    typed = [Board(start).parse("7/12 1/7", (6, 5)), Play(start, (6, 5), ((1, 7), (7, 12)))]
    assert {format_play(p) for p in typed} == {"1/7 7/12"}
    start_id = "Position.from_id('O...........o...........:0:0')"
    assert {repr(p) for p in typed} == {f"Play({start_id}, (6, 5), ((1, 7), (7, 12)))"}
    position = pos({1: 13, 14: 1, 20: 1}, {1: 15})
    assert str(Board(position).parse("14/20 1/6", (6, 5))) == "1/6 14/20"
    locked = pos({1: 14, 10: 1}, {2: 15})  # 1/5 may only follow 10/13 (the runner lock)
    assert str(Board(locked).parse("1/5 10/13", (4, 3))) == "10/13 1/5"


def test_parse_reuses_the_boards_cached_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    board = Board()
    plays = board.legal_plays((6, 5))
    calls: list[object] = []
    monkeypatch.setattr("fevga.notation.legal_plays", lambda *a, **k: calls.append(a) or plays)
    monkeypatch.setattr("fevga.board.legal_plays", lambda *a, **k: calls.append(a) or plays)
    assert board.parse("7/12 1/7", (6, 5)) in plays
    assert calls == []


def test_last_play_skips_passes_and_resign_points_follow_borne_off() -> None:
    game = Game.new(dice=FixedDice([(6, 5), (6, 5), (6, 5)]))
    assert game.last_play is None
    assert game.resign_points(0) == 2 and game.resign_points(1) == 2
    mover = game.turn
    game.play("1/7/12")
    last = game.last_play
    assert last is not None and last.player == mover and last.text() == "1/7 7/12"
    near_end = Position.from_lists([0] * 23 + [14], [0] * 18 + [15] + [0] * 5, 1, 0)
    game.board = Board(near_end, 0)
    assert game.resign_points(0) == 1 and game.resign_points(1) == 2
    outcome = game.resign(1)
    assert outcome.points == 2 and outcome.mars


def test_game_play_text_parses_on_the_cached_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.new(dice=FixedDice([(6, 5), (6, 5), (4, 2)]))
    game.legal_plays()
    real = fevga.board.legal_plays
    generated: list[Position] = []

    def counting(position: Position, *args: object) -> list[Play]:
        generated.append(position)
        return real(position, *args)  # type: ignore[arg-type]  # dice, rules passed through

    monkeypatch.setattr("fevga.board.legal_plays", counting)
    monkeypatch.setattr("fevga.notation.legal_plays", counting)
    start = game.position
    game.play("7/12 1/7")
    assert start not in generated  # only the next player's position was generated
    assert len(generated) == 1

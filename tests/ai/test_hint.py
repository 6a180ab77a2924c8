"""Hints: the best plays first, equities never increasing, each play legal and distinct."""

from __future__ import annotations

from fevga import DEFAULT_RULES, Position, legal_plays
from fevga.ai import get_player, hint


def test_hint_orders_plays_best_first(sample_positions):
    for position, dice in sample_positions[:6]:
        plays = legal_plays(position, dice)
        hints = hint(position, dice, DEFAULT_RULES, n=3)
        assert 1 <= len(hints) <= min(3, len(plays))
        equities = [e for _, e in hints]
        assert equities == sorted(equities, reverse=True)
        assert len({p for p, _ in hints}) == len(hints)
        assert all(p in plays for p, _ in hints)
        assert all(-2.0 <= e <= 2.0 for e in equities)


def test_hint_best_play_is_at_least_as_good_as_the_hard_choice():
    position = Position.start()
    hints = hint(position, (6, 5), DEFAULT_RULES, n=5)
    choice = get_player("hard").choose(position, (6, 5), DEFAULT_RULES)
    best_equity = hints[0][1]
    assert dict(hints).get(choice, best_equity) <= best_equity


def test_hint_n_limits_the_list():
    position = Position.start().flip()  # second player to move, start position from his side
    assert len(hint(position, (3, 1), n=1)) == 1
    assert len(hint(position, (3, 1), n=0)) == 1  # at least the best play


def test_winning_play_has_the_game_value():
    me = [0] * 24
    me[23] = 1
    opp = [0] * 24
    opp[0] = 15
    position = Position.from_lists(me, opp, me_off=14)
    (play, equity), *_ = hint(position, (2, 1))
    assert play.result.me_off == 15
    assert equity == 2.0  # mars: the opponent has borne off none


def test_hint_returns_n_plays_when_there_are_that_many(sample_positions):
    checked = 0
    for position, dice in sample_positions:
        if len(legal_plays(position, dice)) >= 5:
            hints = hint(position, dice, n=5)
            assert len(hints) == 5
            equities = [e for _, e in hints]
            assert equities == sorted(equities, reverse=True)
            checked += 1
            if checked == 3:
                break
    assert checked > 0

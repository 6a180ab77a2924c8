"""Playing the score of a match: the cubeless match table, what each end of a game is worth at a score,
and the search judging ends by those stakes (at double match point it plays for the win alone)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fevga import DEFAULT_RULES, Position
from fevga.ai import MatchScore, NeuralPlayer, get_player, playing_score
from fevga.ai.games import game_network
from fevga.ai.levels_tavli import HARD
from fevga.ai.network import FloatArray, Network, default_network, equity, flip_outputs
from fevga.ai.stakes import MONEY, Stakes, match_chance, match_stakes
from tests.ai.conftest import random_positions
from tests.ai.tavli_samples import random_tavli_positions

KINDS = ("fevga", "portes", "plakoto", "tavli")


class WinOnly:
    """A network whose 2-point estimates are zero: judged as money, only P(win) counts."""

    def __init__(self, net: Network) -> None:
        self.net = net
        self.n_inputs = net.n_inputs

    def forward(self, x: FloatArray) -> FloatArray:
        out = np.array(self.net.forward(x), copy=True)
        out[:, 1:] = 0.0
        return out


@given(st.sampled_from(KINDS), st.integers(1, 9), st.integers(1, 9), st.integers(1, 6))
def test_the_match_table_is_fair_and_monotone(kind: str, need: int, opp_need: int, number: int) -> None:
    here = match_chance(need, opp_need, kind, number)
    assert here + match_chance(opp_need, need, kind, number) == pytest.approx(1.0)  # equal players
    assert match_chance(need, opp_need + 1, kind, number) >= here >= match_chance(need + 1, opp_need, kind, number)
    assert match_chance(need, need, kind, number) == pytest.approx(0.5)


def close(a: Stakes, b: Stakes) -> bool:
    return bool(np.allclose([a.win2, a.lose2, a.draw], [b.win2, b.lose2, b.draw]))


@pytest.mark.parametrize("kind", KINDS)
def test_stakes_at_the_scores_that_decide_them(kind: str) -> None:
    dmp = Stakes(1.0, -1.0, 0.0)
    assert close(match_stakes(1, (0, 0), kind, 1), dmp)  # a 1-point match: only the win counts
    assert close(match_stakes(5, (4, 4), kind, 7), dmp)
    ahead = match_stakes(5, (4, 1), kind, 4)  # at 1-away a 2-point win is worth a 1-point one
    assert ahead.win2 == pytest.approx(1.0) and ahead.lose2 < -1.0
    behind = match_stakes(5, (1, 4), kind, 4)  # the opponent at 1-away: a 2-point loss costs no more
    assert behind.lose2 == pytest.approx(-1.0) and behind.win2 > 1.0
    assert match_stakes(5, (3, 4), kind, 6).win2 == pytest.approx(3.0)  # 2-away, 1-away: a mars wins it all
    assert close(behind.other(), match_stakes(5, (4, 1), kind, 4))  # the other seat's stakes are the other side's
    assert 1.5 < match_stakes(25, (0, 0), kind, 1).win2 < 2.5  # a long match: near money


@given(st.floats(-3, 3), st.floats(-3, 3), st.floats(-1, 1), st.integers(0, 2**31))
def test_stakes_are_zero_sum_and_money_is_the_network_equity(win2: float, lose2: float, draw: float, seed: int) -> None:
    out = np.random.default_rng(seed).uniform(0, 1, size=(8, 3))
    stakes = Stakes(win2, lose2, draw)
    assert np.allclose(stakes.equity(out), -stakes.other().equity(flip_outputs(out)))
    assert stakes.other().other() == stakes
    assert np.array_equal(MONEY.equity(out), equity(out))
    points = np.array([1.0, 2.0, 3.0, -1.0, -2.0, 0.0, np.nan])
    assert MONEY.points(points) is points
    assert np.array_equal(stakes.points(points)[:6], [1.0, win2, win2, -1.0, lose2, draw])
    assert np.isnan(stakes.points(points)[6])


def far_from_the_end(pairs: list[tuple[Position, tuple[int, int]]]) -> list[tuple[Position, tuple[int, int]]]:
    """Positions where neither side can bear off all 15 within a play and a reply (no game end in a 1-ply search)."""
    return [(p, d) for p, d in pairs if p.me_off <= 10 and p.opp_off <= 10]


@pytest.mark.parametrize("game", ["fevga", "portes"])
def test_at_double_match_point_the_search_plays_for_the_win_alone(game: str) -> None:
    """Judged by a DMP's stakes, the hard search ranks every play as money play would with a network that
    never expects a 2-point end; and somewhere that choice differs from money play's."""
    if game == "fevga":
        net, pairs = default_network(), random_positions(60, seed=77)
        player = NeuralPlayer(net, ply=1, widen=4)
    else:
        net, pairs = game_network(game), random_tavli_positions(game, 60, seed=77)
        player = NeuralPlayer(net, **{**HARD, "widen": 4})
    dmp = player.at_stakes(match_stakes(1, (0, 0), game, 1))
    settings = {k: getattr(player, k) for k in ("ply", "keep1", "margin", "max_work", "widen")}
    blind = NeuralPlayer(WinOnly(net), **settings)  # type: ignore[arg-type]
    differs = 0
    cases = far_from_the_end(pairs)
    assert len(cases) >= 30
    for position, dice in cases:
        got = dmp.rank(position, dice, DEFAULT_RULES)
        want = blind.rank(position, dice, DEFAULT_RULES)
        assert [p for p, _ in got] == [p for p, _ in want]
        assert np.allclose([e for _, e in got], [e for _, e in want])
        differs += got[0][0] != player.choose(position, dice, DEFAULT_RULES)
    assert player.stakes is MONEY  # at_stakes made a copy
    assert differs >= 1


def test_playing_score_leaves_other_players_as_they_are() -> None:
    hard = get_player("hard", "plakoto")
    assert playing_score(hard, None) is hard
    medium = get_player("medium", "portes")
    assert playing_score(medium, MatchScore(5, 4, 4, "portes", 3)) is medium
    scored = playing_score(hard, MatchScore(5, 3, 4, "tavli", 5))
    assert isinstance(scored, NeuralPlayer) and scored.stakes == match_stakes(5, (3, 4), "tavli", 5)
    assert isinstance(hard, NeuralPlayer) and scored.net is hard.net


@pytest.mark.parametrize("game", ["fevga", "portes"])
def test_a_hint_at_a_score_ranks_as_the_player_at_that_score(game: str) -> None:
    """`hint` with a match's stakes gives the equities the AI playing that score judges by (not money's)."""
    from fevga.ai import hint

    pairs = random_positions(12, seed=78) if game == "fevga" else random_tavli_positions(game, 12, seed=78)
    dmp = match_stakes(1, (0, 0), game, 1)
    differs = 0
    for position, dice in far_from_the_end(pairs):
        scored, money = hint(position, dice, n=3, stakes=dmp), hint(position, dice, n=3)
        assert [p for p, _ in scored] and len(scored) == len(money)
        differs += any(abs(a - b) > 1e-9 for (_, a), (_, b) in zip(scored, money, strict=True))
    assert differs >= 1

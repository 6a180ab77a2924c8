"""Swiss pairing with the issue's rules: score groups, no repeats, one bye each to the lowest-ranked."""

import random
from collections import Counter

import pytest

from bot.service.tournaments.standings import Entrant, Result, standings
from bot.service.tournaments.swiss import PairingImpossible, swiss_pairing


def _field(n: int) -> list[Entrant]:
    return [Entrant(f"p{i:02d}", 2000 - 25 * i) for i in range(n)]


def _fewest_floats(players: list[str], score: dict[str, int], met: set[frozenset[str]]) -> int:
    """The oracle: the least summed squared score difference of any pairing without repeats (DP over subsets)."""
    n = len(players)
    best = {0: 0}
    for mask in sorted(range(1 << n), key=lambda m: bin(m).count("1")):
        if mask not in best or bin(mask).count("1") % 2:
            continue
        free = [i for i in range(n) if not mask >> i & 1]
        if not free:
            continue
        i = free[0]
        for j in free[1:]:
            if frozenset((players[i], players[j])) in met:
                continue
            nxt = mask | 1 << i | 1 << j
            value = best[mask] + (score[players[i]] - score[players[j]]) ** 2
            if value < best.get(nxt, 10**9):
                best[nxt] = value
    return best[(1 << n) - 1]


def _play(entrants: list[Entrant], rounds: int, seed: int, oracle: bool = True):
    """Plays ``rounds`` Swiss rounds with random winners (and some double losses); checks each pairing."""
    rng = random.Random(seed)
    results: list[Result] = []
    ids = [e.id for e in entrants]
    byes: Counter[str] = Counter()
    for rnd in range(1, rounds + 1):
        before = {r.player: r for r in standings(entrants, results)}
        pairing = swiss_pairing(entrants, results, ids)
        paired = [p for pair in pairing.pairs for p in pair]
        assert sorted(paired + ([pairing.bye] if pairing.bye else [])) == sorted(ids)
        met = {frozenset((r.a, r.b)) for r in results if r.b is not None}
        for a, b in pairing.pairs:
            assert frozenset((a, b)) not in met, f"round {rnd}: {a} and {b} met already"
        # score groups: no pairing without repeats (same bye) has smaller summed squared score differences
        cost = sum((before[a].score - before[b].score) ** 2 for a, b in pairing.pairs)
        if oracle:
            assert cost == _fewest_floats(paired, {p: before[p].score for p in paired}, met), f"round {rnd}"
        if pairing.bye is not None:
            byes[pairing.bye] += 1
            without = [r for r in standings(entrants, results) if not r.had_bye()]
            assert pairing.bye == without[-1].player  # the lowest-ranked without a bye
            results.append(Result(rnd, pairing.bye, None, pairing.bye))
        for a, b in pairing.pairs:
            winner = rng.choice((a, b, a, b, None)) if rnd % 2 else rng.choice((a, b))
            results.append(Result(rnd, a, b, winner))
    assert all(count == 1 for count in byes.values())
    return results


@pytest.mark.parametrize("seed", range(6))
def test_sixteen_players_five_rounds(seed):
    field = _field(16)
    results = _play(field, 5, seed)
    assert len(results) == 5 * 8
    table = standings(field, results)
    # the table is ordered by score, then Buchholz, then Sonneborn-Berger
    keys = [(r.score, r.buchholz, r.sonneborn_berger) for r in table]
    assert keys == sorted(keys, reverse=True)
    assert [r.rank for r in table] == list(range(1, 17))


@pytest.mark.parametrize("seed", range(6))
def test_eleven_players_byes(seed):
    results = _play(_field(11), 5, seed)
    byes = [r.a for r in results if r.b is None]
    assert len(byes) == 5 and len(set(byes)) == 5


def test_first_round_pairs_top_half_with_bottom_half():
    pairing = swiss_pairing(_field(8), [], [e.id for e in _field(8)])
    assert pairing.pairs == (("p00", "p04"), ("p01", "p05"), ("p02", "p06"), ("p03", "p07"))
    assert pairing.bye is None


def test_backs_out_of_a_choice_that_leaves_a_repeat():
    """Only A-B and C-D are left unplayed; then, after A-B and C-D in round one, neither is repeated."""
    field = [Entrant("A", 1900), Entrant("B", 1800), Entrant("C", 1700), Entrant("D", 1600)]
    results = [Result(1, "A", "D", "A"), Result(1, "B", "C", "B"), Result(2, "A", "C", "A"), Result(2, "B", "D", "B")]
    pairing = swiss_pairing(field, results, ["A", "B", "C", "D"])
    assert set(map(frozenset, pairing.pairs)) == {frozenset("AB"), frozenset("CD")}
    results3 = [Result(1, "A", "B", "A"), Result(1, "C", "D", "C")]
    pairing3 = swiss_pairing(field, results3, ["A", "B", "C", "D"])
    assert frozenset(("A", "B")) not in map(frozenset, pairing3.pairs)
    assert frozenset(("C", "D")) not in map(frozenset, pairing3.pairs)


def test_withdrawn_players_are_not_paired():
    field = _field(5)
    pairing = swiss_pairing(field, [], ["p00", "p01", "p02", "p04"])
    assert "p03" not in [p for pair in pairing.pairs for p in pair] and pairing.bye is None


def test_no_pairing_left_raises():
    field = _field(4)
    a, b, c, d = (e.id for e in field)
    results = [Result(1, a, b, a), Result(1, c, d, c), Result(2, a, c, a), Result(2, b, d, b),
               Result(3, a, d, a), Result(3, b, c, b)]  # fmt: skip
    with pytest.raises(PairingImpossible):
        swiss_pairing(field, results, [a, b, c, d])


def test_a_large_odd_field_pairs_every_round():
    """73 players, 7 rounds: every round paired, no repeats, one bye a round, each to a different player."""
    results = _play(_field(73), 7, seed=73, oracle=False)
    byes = [r.a for r in results if r.b is None]
    assert len(byes) == 7 and len(set(byes)) == 7
    assert len(results) == 7 * 37

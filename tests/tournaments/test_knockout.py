"""Knockout brackets: seeded by rating, first-round byes to the top seeds, 11 players played out."""

import random

from bot.service.tournaments.knockout import bracket_pairs, champion, first_bracket, next_bracket, seed_order
from bot.service.tournaments.standings import Entrant


def test_seed_order_keeps_top_seeds_apart():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = seed_order(16)
    assert order.index(1) < 8 <= order.index(2)  # 1 and 2 in opposite halves: they meet only in the final


def test_eleven_players_played_out():
    field = [Entrant(f"s{seed:02d}", 2100 - 10 * seed) for seed in range(1, 12)]
    random.Random(5).shuffle(field)  # seeding comes from ratings, not from join order
    slots = first_bracket(field)
    assert len(slots) == 16
    pairs = bracket_pairs(slots)
    byes = sorted(a or b for a, b in pairs if a is None or b is None)
    assert byes == ["s01", "s02", "s03", "s04", "s05"]  # 16 - 11 byes, to the top five seeds
    played = sorted(tuple(sorted((a, b))) for a, b in pairs if a and b)
    assert played == [("s06", "s11"), ("s07", "s10"), ("s08", "s09")]
    rng = random.Random(3)
    rounds = 0
    while len(slots) > 1:
        winners = {frozenset((a, b)): rng.choice((a, b)) for a, b in bracket_pairs(slots) if a and b}
        slots = next_bracket(slots, winners)
        rounds += 1
    assert rounds == 4 and champion(slots) in {e.id for e in field}


def test_double_loss_gives_the_next_opponent_a_bye():
    field = [Entrant(n, r) for n, r in (("a", 4), ("b", 3), ("c", 2), ("d", 1))]
    slots = first_bracket(field)
    assert bracket_pairs(slots) == [("a", "d"), ("b", "c")]
    slots = next_bracket(slots, {frozenset("ad"): None, frozenset("bc"): "c"})
    assert slots == [None, "c"]
    assert next_bracket(slots, {}) == ["c"] and champion(["c"]) == "c"

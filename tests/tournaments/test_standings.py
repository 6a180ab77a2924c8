"""Tie-breaks against hand-worked standings: Buchholz, then Sonneborn-Berger, then head-to-head, then seed."""

from bot.service.tournaments.standings import Entrant, Result, standings


def _r(rnd: int, winner: str, loser: str) -> Result:
    return Result(rnd, winner, loser, winner)


SIX = [Entrant(n, 1500 + 10 * i) for i, n in enumerate("ABCDEF")]  # F has the highest seed
# R1: D>A B>F E>C   R2: B>C F>A D>E   R3: B>D C>F A>E
THREE_ROUNDS = [
    _r(1, "D", "A"), _r(1, "B", "F"), _r(1, "E", "C"),
    _r(2, "B", "C"), _r(2, "F", "A"), _r(2, "D", "E"),
    _r(3, "B", "D"), _r(3, "C", "F"), _r(3, "A", "E"),
]  # fmt: skip


def test_hand_worked_table():
    """Scores A1 B3 C1 D2 E1 F1; Buchholz B4 D5 C5 F5 A4 E4; SB B4 D2 C1 F1 A1 E1 (worked by hand).
    C and F tie on all three: C beat F. A and E tie: A beat E. Both against the seed order."""
    table = standings(SIX, THREE_ROUNDS)
    got = [(r.player, r.score, r.buchholz, r.sonneborn_berger, r.rank) for r in table]
    assert got == [
        ("B", 3, 4, 4, 1),
        ("D", 2, 5, 2, 2),
        ("C", 1, 5, 1, 3),
        ("F", 1, 5, 1, 4),
        ("A", 1, 4, 1, 5),
        ("E", 1, 4, 1, 6),
    ]
    assert table[0].rounds == {1: ("F", True), 2: ("C", True), 3: ("D", True)}


def test_sonneborn_berger_breaks_equal_buchholz():
    """Two players with one win and equal Buchholz: the one who beat the stronger opponent is above."""
    four = [Entrant("W", 1400), Entrant("X", 1500), Entrant("Y", 1600), Entrant("Z", 1700)]
    # R1: W>X, Y>Z. R2: Y>W, Z>X.  Scores W1 X0 Y2 Z1.
    results = [_r(1, "W", "X"), _r(1, "Y", "Z"), _r(2, "Y", "W"), _r(2, "Z", "X")]
    table = {r.player: r for r in standings(four, results)}
    assert (table["W"].buchholz, table["Z"].buchholz) == (2, 2)  # W: X0+Y2, Z: Y2+X0
    assert (table["W"].sonneborn_berger, table["Z"].sonneborn_berger) == (0, 0)
    # fully tied and they never met: the higher seed (Z) is above
    assert table["Z"].rank < table["W"].rank


def test_bye_scores_a_win_and_adds_no_tie_break():
    three = [Entrant("A", 1500), Entrant("B", 1500), Entrant("C", 1500)]
    results = [_r(1, "A", "B"), Result(1, "C", None, "C")]
    table = {r.player: r for r in standings(three, results)}
    assert table["C"].score == 1 and table["C"].buchholz == 0 and table["C"].had_bye()
    assert table["A"].buchholz == 0 and not table["A"].had_bye()


def test_double_loss_scores_nobody():
    two = [Entrant("A"), Entrant("B")]
    table = {r.player: r for r in standings(two, [Result(1, "A", "B", None)])}
    assert table["A"].score == table["B"].score == 0
    assert table["A"].rounds[1] == ("B", False) and table["B"].rounds[1] == ("A", False)

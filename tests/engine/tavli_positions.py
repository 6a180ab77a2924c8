"""Position helpers for the Portes/Plakoto tests: build positions the way RULES-TAVLI.md writes them
(both players' checkers in MY numbering) and compare a roll's legal plays with a listed set."""

from __future__ import annotations

import random

from fevga import Play, format_play, legal_plays, parse_play
from fevga.variants import TavliPosition


def tpos(
    game: str,
    me: dict[int, int],
    him: dict[int, int],
    *,
    me_bar: int = 0,
    opp_bar: int = 0,
    me_off: int = 0,
    opp_off: int = 0,
    my_pinned: tuple[int, ...] = (),
    his_pinned: tuple[int, ...] = (),
) -> TavliPosition:
    """``me`` and ``him`` map MY point numbers to counts (pinned checkers counted); ``my_pinned`` and
    ``his_pinned`` are my point numbers where that player's checker is pinned."""
    mine = [0] * 24
    his = [0] * 24
    for p, c in me.items():
        mine[p - 1] = c
    for p, c in him.items():
        his[24 - p] = c  # my point p is his 25 - p
    return TavliPosition.from_tavli_lists(
        game,
        mine,
        his,
        me_off,
        opp_off,
        me_bar=me_bar,
        opp_bar=opp_bar,
        me_pin=my_pinned,
        opp_pin=tuple(25 - p for p in his_pinned),
    )


def results(position: TavliPosition, dice: tuple[int, int]) -> set[TavliPosition]:
    """The positions the legal plays leave."""
    return {p.result for p in legal_plays(position, dice)}


def assert_plays(position: TavliPosition, dice: tuple[int, int], listed: list[str]) -> None:
    """The COMPLETE set of legal plays is exactly ``listed`` (compared by the position left, both
    sides), and every printed form of every legal play parses back to itself."""
    plays = legal_plays(position, dice)
    if listed == ["pass"]:
        assert len(plays) == 1 and plays[0].is_pass, [format_play(p) for p in plays]
        return
    wanted = [parse_play(text, position, dice) for text in listed]
    assert len({p.result for p in wanted}) == len(listed), "two listed plays are the same play"
    assert {p.result for p in plays} == {p.result for p in wanted}, sorted(format_play(p, compact=True) for p in plays)
    for play in plays:
        for text in (format_play(play), format_play(play, compact=True), format_play(play).replace("*", "")):
            assert parse_play(text, position, dice) == play, text


def random_tavli_position(game: str, rng: random.Random, max_turns: int = 120) -> TavliPosition:
    """A position reached by random self-play of ``game`` from its start."""
    p = TavliPosition.start(game)
    for _ in range(rng.randint(0, max_turns)):
        play: Play = rng.choice(legal_plays(p, (rng.randint(1, 6), rng.randint(1, 6))))
        after = play.result.flip()
        assert isinstance(after, TavliPosition)
        if after.is_over():
            break
        p = after
    return p

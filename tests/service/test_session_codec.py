"""The stored session: compact, round-trips exactly, and rejects corrupt bytes clearly."""

from __future__ import annotations

import random
import zlib

import pytest

from bot.service.models import Place, PlayerRef
from bot.service.session import CorruptSession, Session, decode, encode
from fevga import Game, Rules

P0 = PlayerRef("discord", "123456789012345678", "alice")
P1 = PlayerRef("discord", "223456789012345678", "bob")
PLACE = Place("discord", "323456789012345678", "423456789012345678")


def _finished(seed: int) -> Session:
    rng = random.Random(seed)
    t = 1_800_000_000.0
    game = Game.new(at=t)
    while not game.is_over():
        t += rng.uniform(1, 300)
        game.play(rng.choice(game.legal_plays()), at=t)
    return Session("abcdefgh", PLACE, (P0, P1), 5, Rules(unlock_point=14), game, 1_800_000_000.0, 86400.0,
                   turn_start=t, score=[2, 1], game_no=3, pending=[(1, 6)], autoplay=[True, False])


def test_round_trip_and_size() -> None:
    for seed in range(6):
        s = _finished(seed)
        blob = encode(s)
        assert len(blob) < 1400  # a whole game, seed and times included
        back = decode(blob)
        assert back.game.position == s.game.position and back.game.turn == s.game.turn
        assert [r.steps for r in back.game.history] == [r.steps for r in s.game.history]
        assert [round(r.at or 0) for r in back.game.history] == [round(r.at or 0) for r in s.game.history]
        assert back.game.outcome == s.game.outcome
        assert back.game.rolls() == s.game.rolls()
        assert (back.rules, back.score, back.game_no, back.pending, back.autoplay) == \
            (s.rules, s.score, s.game_no, s.pending, s.autoplay)
        assert encode(back) == blob


def test_corrupt_blobs_raise_corrupt_session() -> None:
    blob = encode(_finished(1))
    raw = zlib.decompress(blob)
    bad = [b"", b"junk", zlib.compress(b"{}"), zlib.compress(raw.replace(b'"sv":1', b'"sv":9')),
           zlib.compress(raw.replace(b'"turn":', b'"turn":7,"x":'))]
    tampered = raw.replace(b'"s":"', b'"s":"AAAA', 1)
    bad.append(zlib.compress(tampered))
    for item in bad:
        with pytest.raises(CorruptSession):
            decode(item)


@pytest.mark.parametrize("winner", [0, 1, None])
def test_the_match_winner_survives_a_round_trip_in_either_seat(winner: int | None) -> None:
    s = _finished(1)
    s.winner = winner
    assert decode(encode(s)).winner == winner  # seat 0 (a falsy 0) included

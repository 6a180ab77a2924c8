"""The analysis of a match's game judges each play at the score the players faced, as ``hint`` does."""

from __future__ import annotations

import pytest

import fevga.ai
from bot.service.ai import EngineAI
from fevga import Game
from fevga.ai.stakes import MatchScore
from fevga.analysis import Report, analyse, judge_game, seat_score

from .games import seeded_dice


def hinted_game(game: str, score: MatchScore, seed: int) -> Game:
    """A game of a match where player 0 always plays the bot's first ``hint`` at his score and player 1
    the hard level playing his own score, as the bot's AI does."""
    ai = EngineAI(fevga.ai)
    record = Game.new(dice=seeded_dice(seed), game=game)
    while not record.is_over():
        assert record.dice is not None
        seat = record.turn
        if seat == 0:
            play = ai.hint(record.position, record.dice, record.rules, 3, score)[0][0]
        else:
            play = ai.choose(record.position, record.dice, record.rules, "hard", seat_score(score, 1))
        record.play(play)
    return record


def hinted_losses(report: Report, record: Game) -> list[float]:
    """The analysis's loss on every unforced turn of player 0."""
    return [loss for i, turn in enumerate(record.history)
            if turn.player == 0 and (loss := report.loss(i)) is not None]


@pytest.mark.parametrize(("game", "score", "seed"), [
    ("plakoto", MatchScore(1, 0, 0, "plakoto", 1), 11),  # a 1-point match: only winning counts
    ("portes", MatchScore(5, 3, 4, "portes", 8), 12),  # 2-away 1-away: a mars of his wins the match
])
def test_hint_s_first_play_is_never_an_error_at_the_match_s_score(game: str, score: MatchScore, seed: int) -> None:
    """Every play that was hint's first choice loses nothing in the analysis at the same score (the hint said
    1/5 14/16* was best and the analysis, judging money play, called it an error), while judged as money play
    some of the same plays lose equity: the money-best and the score-best plays differ in this game."""
    record = hinted_game(game, score, seed)
    at_score = analyse(record, None, luck=False, score=score)
    assert at_score.match and hinted_losses(at_score, record)
    assert all(loss == 0 for loss in hinted_losses(at_score, record)), at_score.marks
    money = analyse(record, None, luck=False)
    assert not money.match and any(loss > 0 for loss in hinted_losses(money, record))


def test_the_same_play_has_the_hint_s_equity() -> None:
    """The analysis's equity of a play that was hint's first choice is the hint's own number (it showed
    +0.747 in the hint and +1.404 in the analysis: two scales for one play)."""
    score = MatchScore(1, 0, 0, "plakoto", 1)
    record = hinted_game("plakoto", score, 11)
    ai = EngineAI(fevga.ai)
    judged = [d for d in judge_game(record, None, luck=False, score=score) if d.player == 0 and not d.forced]
    assert judged
    for d in judged[:8]:
        first, equity = ai.hint(d.position, d.dice, record.rules, 3, score)[0]
        assert (d.played, d.best) == (first, first)
        assert d.played_equity == pytest.approx(equity) and abs(equity) <= 1.0  # a single win is +1 at 1 point


def test_a_money_game_is_judged_as_before() -> None:
    """Without a score the analysis is money play's, stored exactly as before (no match mark)."""
    record = hinted_game("plakoto", MatchScore(1, 0, 0, "plakoto", 1), 11)
    report = analyse(record, 0, luck=False)
    assert not report.match and "s" not in report.to_dict()
    assert Report.decode(report.encode()) == report


def test_the_header_says_which_scale_the_numbers_are_on() -> None:
    """At a match's score the equities are its stakes (+1 a single win), in money play points: the title says
    which, in both languages."""
    from bot.chat.analysis_reply import words
    from fevga.analysis import PlayerReport
    from fevga.analysis_text import report_text

    quiet = PlayerReport(3, 0, 0.0, 0, 0, 0.0, None, ())
    match = Report("hard", None, "...", (quiet, quiet), (0, 0, 0), match=True)
    money = Report("hard", None, "...", (quiet, quiet), (0, 0, 0))
    assert report_text(match, ("a", "b")).startswith("Analysis by hard, at the match score (+1 a single win")
    assert report_text(money, ("a", "b")).startswith("Analysis by hard, in points\n")
    assert report_text(match, ("a", "b"), words("el")).startswith("Ανάλυση από hard, στο σκορ του αγώνα")
    assert report_text(money, ("a", "b"), words("el")).startswith("Ανάλυση από hard, σε πόντους\n")
    assert Report.decode(match.encode()) == match


def test_a_match_s_report_keeps_losses_its_stakes_allow() -> None:
    """At a 2-point Plakoto match's 0-0 a 2-point end is worth 4 single games, so a random play can lose more
    than 4 points: the stored report must read back (it was refused as impossible, and the bot then said
    the game was corrupt); a money report's 4-point bound stands."""
    import random

    from fevga import RandomDice
    from fevga.errors import SerializationError

    rng = random.Random(2)
    game = Game.new(dice=RandomDice(2), game="plakoto")
    while not game.is_over():
        game.play(rng.choice(game.legal_plays()))
    report = analyse(game, ply=0, luck=False, score=MatchScore(2, 0, 0, "plakoto", 1))
    assert max(report.losses) > 4000
    assert Report.from_dict(report.to_dict()) == report
    money = {**report.to_dict(), "s": 0}
    with pytest.raises(SerializationError, match="impossible losses"):
        Report.from_dict(money)

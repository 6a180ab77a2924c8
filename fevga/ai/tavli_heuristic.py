"""Hand-made evaluations for Portes and Plakoto (like ``heuristic.py`` for Fevga) and their players.

Each scores an *afterstate* (the position a play leaves, still from the mover's view; the opponent
rolls next), mover minus opponent, higher better for the mover. Portes weighs pips, blots the
opponent can reach, his checkers on the bar, made points and primes; Plakoto weighs pips, pins held
and suffered, exposed single checkers and the safety of both mothers. They are the yardstick the
networks of the AI helper will be measured against.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

from fevga import Play, Position, Rules, legal_plays
from fevga.variants import TavliPosition
from fevga.variants.plakoto import mothers

from .players import Player, RandomPlayer, ScorePlayer

WIN = 1000.0


def _reach(board: tuple[int, ...], i: int, bar: int) -> int:
    """How many of the opponent's checkers stand within 12 points before my point ``i + 1`` in his
    direction (he moves from my high points to my low ones), his bar counting as my point 25."""
    count = sum(-board[j] for j in range(i + 1, min(i + 13, 24)) if board[j] < 0)
    if bar and i >= 12:
        count += bar
    return count


def _portes_side(p: TavliPosition) -> float:
    """One side's value in Portes, from that side's own view."""
    b = p.board
    pips, _ = p.pips()
    value = -1.0 * pips + 4.0 * p.me_off - 12.0 * p.me_bar
    run = best = 0
    for i, c in enumerate(b):
        if c >= 2:
            value += 3.0 if i >= 12 else 1.0  # made points, more in the front half and home
            run += 1
            best = max(best, run)
        else:
            run = 0
            if c == 1:
                exposure = _reach(b, i, p.opp_bar)
                if exposure:
                    value -= 4.0 + 0.6 * exposure + 0.4 * (i + 1)  # a hit costs the pips gone so far
    value += 2.0 * best * best
    return value


def portes_score(position: TavliPosition) -> float:
    """Portes afterstate score: mover minus opponent (each on his own view)."""
    if position.me_off == 15:
        return WIN * (2 if position.opp_off == 0 else 1)
    return _portes_side(position) - _portes_side(position.flip())


def _plakoto_side(p: TavliPosition) -> float:
    """One side's value in Plakoto, from that side's own view."""
    b, pins = p.board, p.pins
    pips, _ = p.pips()
    value = -1.0 * pips + 4.0 * p.me_off
    for i in range(24):
        if pins[i] == -1:  # I pin one of his: worth more the further back it is for him
            value += 10.0 + 0.8 * i
        elif pins[i] == 1:
            value -= 12.0 + 0.8 * (23 - i)
        elif b[i] == 1 and _reach(b, i, 0):
            value -= 3.0 + 0.3 * i  # a single checker he can pin
        elif b[i] >= 2:
            value += 1.5
    if b[0] == 1 and pins[0] == 0 and any(b[j] < 0 for j in range(1, 7)):
        value -= 25.0  # my mother alone where he can pin it
    return value


def plakoto_score(position: TavliPosition) -> float:
    """Plakoto afterstate score: mover minus opponent; pinning his mother is a win unless he holds
    mine in turn (the exception) or I still have checkers on my point 1."""
    if position.me_off == 15:
        return WIN * (2 if position.opp_off == 0 else 1)
    mine, his = mothers(position)
    if his and not mine:
        return WIN * 2 if position.board[0] <= 0 else WIN
    if mine and not his:
        return -WIN
    return _plakoto_side(position) - _plakoto_side(position.flip())


def tavli_race_score(position: TavliPosition) -> float:
    """The simplest evaluation: pip lead plus borne-off checkers (the ``easy`` level)."""
    mine, theirs = position.pips()
    return float(theirs - mine) + 2.0 * (position.me_off - position.opp_off)


def _judge(game: str) -> Callable[[Position], float]:
    """The heuristic score of ``game`` as a function of any position (a TavliPosition)."""
    score = portes_score if game == "portes" else plakoto_score

    def judge(position: Position) -> float:
        assert isinstance(position, TavliPosition)
        return score(position)

    return judge


def _scored(name: str, game: str) -> ScorePlayer:
    return ScorePlayer(name, _judge(game))


class NoisyScorePlayer(ScorePlayer):
    """A ScorePlayer that misjudges: each play's score gets an error of up to ``noise`` either way,
    fixed by the play's result (a hash of its id), so that the player errs like a weak human, mostly
    between near plays, and a seeded match replays exactly. Portes' ``easy`` (docs/ai-training.md)."""

    def __init__(self, name: str, score: Callable[[Position], float], noise: float) -> None:
        super().__init__(name, score)
        self.noise = noise

    def _noisy(self, result: Position) -> float:
        """The result's score plus its fixed error in [-noise, noise]."""
        error = zlib.crc32(str(result.id()).encode()) / 0xFFFFFFFF * 2.0 - 1.0
        return self._score(result) + self.noise * error

    def rank(self, position: Position, dice: tuple[int, int], rules: Rules) -> list[tuple[Play, float]]:
        scored = [(p, self._noisy(p.result)) for p in legal_plays(position, dice, rules)]
        scored.sort(key=lambda item: -item[1])
        return scored

    def choose(self, position: Position, dice: tuple[int, int], rules: Rules) -> Play:
        plays = legal_plays(position, dice, rules)
        return plays[0] if len(plays) == 1 else max(plays, key=lambda p: self._noisy(p.result))


# Portes' easy: the heuristic with errors of up to EASY_NOISE points (about as many pips). The race
# player that Plakoto's easy is plays worse than random in Portes (it hits whatever it can and
# leaves blots everywhere), so Portes' easy is the noisy heuristic instead.
EASY_NOISE = 50.0
TAVLI_LEVELS = {"easy": "greedy", "medium": "heuristic", "hard": "heuristic", "expert": "heuristic"}
EASY = {"portes": "noisy", "plakoto": "greedy"}


def tavli_player(game: str, level: str) -> Player:
    """A Portes/Plakoto player for a level or name (random, greedy, heuristic); ValueError otherwise.
    Here hard and expert are the heuristic: fevga.ai gives them each game's network, falling back to this
    player only when the game's weights file is missing."""
    key = level.strip().lower() if isinstance(level, str) else ""
    name = EASY.get(game, "greedy") if key == "easy" else TAVLI_LEVELS.get(key, key)
    if name == "random":
        return RandomPlayer()
    if name == "greedy":

        def race(position: Position) -> float:
            assert isinstance(position, TavliPosition)
            return tavli_race_score(position)

        return ScorePlayer("greedy", race)
    if name == "heuristic":
        return _scored("heuristic", game)
    if name == "noisy":
        return NoisyScorePlayer("noisy", _judge(game), EASY_NOISE)
    choices = ", ".join((*TAVLI_LEVELS, "random", "greedy", "heuristic", "noisy"))
    raise ValueError(f"unknown AI level {level!r} for {game}: use one of {choices}")

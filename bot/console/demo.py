"""``tournament demo`` in the terminal chat: a small local Swiss among AI players of several levels, the
matches played by the bot itself (AI against AI, off the store: the session model has no AI-vs-AI match),
with each round's pairings, results and the text standings printed as the chats show them.

The pairing and the table are the tournaments' own pure functions (``swiss_pairing``, ``standings``) and
their catalogue messages, so the demo shows exactly what a server's event would. With ``tournament demo join``
the terminal's player is in the field too: each of his matches is an ordinary game against the AI of his
opponent's level, played at the keyboard (``human_play``), and the demo waits for it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

from bot.service.ai import AiPlayer
from bot.service.models import Msg, Place
from bot.service.tournaments.events import Tournaments
from bot.service.tournaments.model import Pair, Tournament
from bot.service.tournaments.standings import Entrant, Result
from bot.service.tournaments.swiss import PairingImpossible, swiss_pairing
from fevga import FairDice
from fevga.match import Match

LEVELS = ("easy", "easy", "medium", "medium", "hard")
"""The demo's field: five AI players of three levels (an odd field: each round has a bye)."""
ROUNDS = 3
MAX_PLIES = 2000  # a game that somehow never ends is called a loss for the player to move (never seen)
SEED_RATING = {"easy": 1300.0, "medium": 1500.0, "hard": 1700.0, "expert": 1900.0}


def play_match(ai: AiPlayer, levels: tuple[str, str], points: int, rng: random.Random) -> int:
    """An AI-against-AI match to ``points`` (each side at its level); the winning side (0 or 1)."""
    match = Match.new(points, dice_factory=lambda: FairDice(rng.randbytes(32)))
    while not match.is_over():
        game = match.game
        rules = match.rules_of(len(match.games))
        for _ in range(MAX_PLIES):
            if game.is_over() or game.dice is None:
                break
            game.play(ai.choose(game.position, game.dice, rules, levels[game.turn]))
        if not game.is_over():
            return game.turn ^ 1
        if not match.is_over():
            match.next_game()
    winner = match.winner()
    return 0 if winner is None else winner


def field(levels: tuple[str, ...] = LEVELS) -> list[Entrant]:
    """The AI players: ``AI <level> <n>``, seeded by level."""
    seen: dict[str, int] = {}
    out = []
    for level in levels:
        seen[level] = seen.get(level, 0) + 1
        out.append(Entrant(f"ai-{level}-{seen[level]}", SEED_RATING.get(level, 1500.0), f"AI {level} {seen[level]}"))
    return out


def level_of(player_id: str) -> str:
    """The AI level of a demo player's id (``ai-<level>-<n>``)."""
    return player_id.split("-")[1]


async def run_demo(events: Tournaments, ai: AiPlayer, say: Callable[[Msg], None], *, rounds: int = ROUNDS,
                   points: int = 1, levels: tuple[str, ...] = LEVELS, seed: int | None = None,
                   human: Entrant | None = None,
                   human_play: Callable[[str], Awaitable[bool]] | None = None) -> Tournament:  # fmt: skip
    """Play the demo event to its end, telling each step through ``say``; the finished event. ``human`` (with
    ``human_play(level) -> he won``) joins the field."""
    rng = random.Random(seed)
    players = field(levels) + ([human] if human is not None else [])
    t = Tournament("demo", Place("terminal", "terminal", "demo"), "swiss", rounds, points, 0.0, 0.0, False, "you",
                   status="running", players=players)  # fmt: skip
    say(Msg("tournament_demo_start", {"count": len(t.players), "rounds": rounds, "points": points}))
    while t.round < t.rounds:
        try:
            pairing = swiss_pairing(t.players, t.results, t.active())
        except PairingImpossible:
            break
        t.round += 1
        t.pairs = [Pair(a, b) for a, b in pairing.pairs] + ([Pair(pairing.bye, None)] if pairing.bye else [])
        for pair in t.pairs:
            if pair.b is None:
                say(Msg("tournament_bye", {"player": t.name_of(pair.a), "round": t.round}))
                t.results.append(Result(t.round, pair.a, None, pair.a))
                continue
            say(Msg("tournament_demo_pairing", {"round": t.round, "player0": t.name_of(pair.a),
                                                "player1": t.name_of(pair.b)}))  # fmt: skip
            if human is not None and human_play is not None and human.id in (pair.a, pair.b):
                mine = await human_play(level_of(pair.b if pair.a == human.id else pair.a))
                won = int(mine) if pair.b == human.id else int(not mine)
            else:
                sides = (level_of(pair.a), level_of(pair.b))
                won = await asyncio.to_thread(play_match, ai, sides, points, random.Random(rng.randrange(2**32)))
            winner = (pair.a, pair.b)[won]
            t.results.append(Result(t.round, pair.a, pair.b, winner))
            say(Msg("tournament_demo_result", {"winner": t.name_of(winner),
                                               "loser": t.name_of((pair.a, pair.b)[won ^ 1])}))  # fmt: skip
        if t.round < t.rounds:
            for msg in events.table_msgs(t):
                say(msg)
    t.status = "done"  # the last round played, or no pairing without a repeat is left
    t.winner = events._winner(t)
    for msg in events.table_msgs(t):
        say(msg)
    say(Msg("tournament_demo_over", {"winner": t.name_of(t.winner)}))
    return t

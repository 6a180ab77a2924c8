"""A game workload for the store's resilience tests and benchmark: players in their own channels
looking at the board and making random legal moves through a real GameService."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

from bot.service import GameService, GameView, Place, PlayerRef, Result
from bot.service.ai import RandomAI
from bot.storage import Store
from fevga import Position, format_play, legal_plays


@dataclass
class Outcome:
    """One command's end: when (monotonic), whether it succeeded, the error key if not, when it began and
    for which game."""

    at: float
    ok: bool
    error: str | None = None
    started: float = 0.0
    game: int = -1


@dataclass
class Workload:
    """``games`` games in their own channels; ``run`` plays them until ``stop`` is set."""

    service: GameService
    games: int = 20
    outcomes: list[Outcome] = field(default_factory=list)
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    @classmethod
    def on(cls, store: Store, games: int = 20) -> Workload:
        """A workload on a fresh GameService over ``store``."""
        return cls(GameService(store, ai=RandomAI(seed=1)), games)

    def seat(self, n: int) -> tuple[Place, PlayerRef, PlayerRef]:
        """Channel ``n`` and its two players."""
        place = Place("discord", "load", f"c{n}")
        return place, PlayerRef("discord", f"a{n}", f"a{n}"), PlayerRef("discord", f"b{n}", f"b{n}")

    async def start_game(self, n: int) -> Result:
        """A fresh game in channel ``n`` (the previous one there is over)."""
        place, a, b = self.seat(n)
        await self.service.challenge(a, place, b)
        return await self.service.accept(b, place)

    async def setup(self) -> None:
        """Start every game."""
        for n in range(self.games):
            assert (await self.start_game(n)).ok

    async def command(self, n: int, rng: random.Random, view: GameView | None) -> GameView | None:
        """One command for game ``n``: a move when we know the board, else a look at it; records it."""
        place, a, _ = self.seat(n)
        started = time.monotonic()
        if view is not None and view.status != "play":
            result = await self.start_game(n)
        elif view is None or view.dice is None or rng.random() < 0.2:
            result = await self.service.board(a, place)
        else:
            pos = Position.from_id(view.position_id)
            play = rng.choice(legal_plays(pos if view.turn == 0 else pos.flip(), view.dice))
            result = await self.service.move(view.players[view.turn], place, format_play(play))
        self.outcomes.append(Outcome(time.monotonic(), result.ok, result.error_key, started, n))
        return result.view if result.ok else None

    async def player(self, n: int) -> None:
        """Keep playing game ``n`` until stopped; after a failure, look at the board again."""
        rng = random.Random(n)
        view: GameView | None = None
        while not self.stop.is_set():
            view = await self.command(n, rng, view)
            await asyncio.sleep(0.005 if view is not None else 0.02)

    async def run(self) -> None:
        """Play every game concurrently until ``stop`` is set."""
        await asyncio.gather(*(self.player(n) for n in range(self.games)))

    def rate(self, since: float, until: float = float("inf"), by_start: bool = False) -> tuple[float, int]:
        """Share of commands that ended (or, ``by_start``, began) in [since, until) and succeeded, and how
        many there were."""
        window = [o for o in self.outcomes if since <= (o.started if by_start else o.at) < until]
        return (sum(o.ok for o in window) / len(window) if window else 0.0), len(window)

    def served(self, since: float) -> set[int]:
        """The games with a command begun at ``since`` or later that succeeded."""
        return {o.game for o in self.outcomes if o.ok and o.started >= since}

    def last_failure(self) -> float | None:
        """When the last failed command ended, if any."""
        failed = [o.at for o in self.outcomes if not o.ok]
        return max(failed) if failed else None


async def burst(store: Store, in_flight: int = 300) -> list[Result]:
    """``in_flight`` commands at once (half moves, half board looks) on as many games; their results."""
    load = Workload.on(store, in_flight)
    await asyncio.gather(*(load.start_game(n) for n in range(in_flight)))
    views = await asyncio.gather(*(load.service.board(load.seat(n)[1], load.seat(n)[0]) for n in range(in_flight)))
    rng = random.Random(5)

    async def one(n: int) -> Result:
        """Game ``n``'s command of the burst."""
        place, a, _ = load.seat(n)
        view = views[n].view
        if n % 2 or view is None or view.dice is None:
            return await load.service.board(a, place)
        pos = Position.from_id(view.position_id)
        play = rng.choice(legal_plays(pos if view.turn == 0 else pos.flip(), view.dice))
        return await load.service.move(view.players[view.turn], place, format_play(play))

    return list(await asyncio.gather(*(one(n) for n in range(in_flight))))

"""What every chat's whole-tavli-match test shares: a Plakoto draw planted in a running match (RULES-TAVLI
K-6c, both mothers pinned by the next play) and the checks of the finished match's record (the rotation,
who started each game, the score)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.service import GameService
from bot.service.commits import Change
from bot.service.models import Result
from fevga import Board, FixedDice, Game
from fevga.match import game_kind
from fevga.variants import PlakotoRules
from tests.engine.tavli_positions import tpos

DRAW_PLAY = "20/24* 20/21"
"""The play (with 4-1) that pins the last free mother of the planted position: the game is drawn."""


def plakoto_draw_game(first: int = 0) -> Game:
    """A Plakoto game at RULES-TAVLI K-6c, ``first`` to play 4-1: ``DRAW_PLAY`` pins the last free mother."""
    game = Game.new(PlakotoRules(), FixedDice([(4, 1)]), first=first)
    k6c = tpos("plakoto", {1: 1, 7: 1, 12: 2, 17: 1, 18: 4, 19: 5, 24: 1}, {24: 1, 5: 7, 3: 7}, his_pinned=(24,))
    game.board = Board(k6c.flip(), game.turn, game.rules)
    return game


async def plant_game(service: GameService, game_id: str, make: Callable[[int], Game]) -> int:
    """Replace the running game of ``game_id`` by ``make(seat to move)`` (a stored position, written as the
    service writes it); returns the new stored version."""
    loaded = await service.sessions.load(game_id)
    s = loaded.session
    assert s is not None and s.status == "play"
    s.game, s.pending = make(s.game.turn), []
    assert await service.sessions.save(s, loaded.version, Change(), Result(ok=True)) is not None
    return loaded.version + 1


async def plant_plakoto_draw(service: GameService, game_id: str) -> None:
    """Replace the running Plakoto game of ``game_id`` by K-6c with 4-1 to play for the side to move, so that
    its ``DRAW_PLAY`` draws the game."""
    assert (await service.view_of(game_id)).view.game == "plakoto"  # type: ignore[union-attr]
    await plant_game(service, game_id, plakoto_draw_game)


def check_tavli_record(games: list[dict[str, Any]], score: tuple[int, int], length: int) -> int:
    """The finished tavli match's record: game n is Portes, Plakoto, Fevga, ... in turn (a draw moves the
    rotation on), a game's winner starts the next one, the points add up to the final score, which reaches
    ``length``. Returns the number of drawn games."""
    points, draws = [0, 0], 0
    for number, rec in enumerate(games, start=1):
        assert rec["game"].get("game", "fevga") == game_kind("tavli", number), number
        winner = rec["outcome"]["winner"]
        if winner is None:
            draws += 1
            assert rec["game"].get("game") == "plakoto"  # only Plakoto has draws (both mothers pinned)
        else:
            points[winner] += rec["outcome"]["points"]
        before = games[number - 2]["outcome"]["winner"] if number > 1 else None
        if before is not None:
            assert rec["game"]["first"] == before, number  # the last winner starts
    assert tuple(points) == tuple(score) and max(score) >= length
    return draws

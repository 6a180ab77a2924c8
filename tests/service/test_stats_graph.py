"""The ``stats`` picture: drawn from the rating history on a real Redis, cached until the next rated match."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.chat import rating_graph
from bot.service import GameService
from bot.storage import RedisStore
from renderers.rating_graph import RatingGraph, Series
from renderers.theme import CLASSIC
from tests.service.conftest import ALICE, BOB, HERE
from tests.service.helpers import play_out, start_game


async def _rated_match(service: GameService, seed: int) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    await play_out(service, started, HERE, random.Random(seed))


async def test_graph_drawn_once_then_cached_until_the_next_rated_match(
        redis_store: RedisStore, redis_service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    assert await rating_graph.stats_graph(redis_store, ALICE, HERE) is None  # no rated match yet
    rating_graph._cache.clear()
    drawn: list[str] = []
    real = rating_graph.draw

    def counting(name: str, series: list[Series]) -> RatingGraph:
        drawn.append(name)
        assert [len(s.points) for s in series] == [len(drawn), len(drawn)]  # here and global, one per match
        return real(name, series)

    monkeypatch.setattr(rating_graph, "draw", counting)
    await _rated_match(redis_service, 1)
    first = await rating_graph.stats_graph(redis_store, ALICE, HERE)
    again = await rating_graph.stats_graph(redis_store, ALICE, HERE)
    assert first is not None and again == first and drawn == ["alice"]
    img = Image.open(io.BytesIO(first))
    assert img.format == "PNG" and img.getpixel((5, 5)) == CLASSIC.banner
    await _rated_match(redis_service, 2)
    second = await rating_graph.stats_graph(redis_store, ALICE, HERE)
    assert second is not None and second != first and drawn == ["alice", "alice"]


async def test_a_portes_players_graph_is_his_portes_rating(redis_store: RedisStore, redis_service: GameService,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game has a rating of its own: a player whose rated matches are Portes gets the Portes graph (it was
    drawn from Fevga's board alone, so he got none), titled with the game; after a Fevga match it follows his
    latest game."""
    rating_graph._cache.clear()
    drawn: list[tuple[str, list[int]]] = []
    real = rating_graph.draw

    def noting(name: str, series: list[Series]) -> RatingGraph:
        drawn.append((name, [len(s.points) for s in series]))
        return real(name, series)

    monkeypatch.setattr(rating_graph, "draw", noting)
    for seed in (1, 2):
        assert (await redis_service.challenge(ALICE, HERE, BOB, kind="portes")).ok
        await play_out(redis_service, await redis_service.accept(BOB, HERE), HERE, random.Random(seed))
    assert await rating_graph.stats_graph(redis_store, ALICE, HERE) is not None
    assert drawn == [("alice · Portes", [2, 2])]  # two Portes matches, here and globally, the game named
    await _rated_match(redis_service, 3)  # then a Fevga match: the latest game's graph, named
    assert await rating_graph.stats_graph(redis_store, ALICE, HERE) is not None
    assert drawn[-1] == ("alice · Fevga", [1, 1])

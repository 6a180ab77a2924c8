"""The AI plays the score it reads from the store: a tavli match against the AI on two instances of the service
over one real redis-server, every move of the human delivered to both at once (a re-delivered update), each
instance with an AI of its own. Whichever instance plays an AI turn tells its AI the score of the stored match."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from bot.service import GameService
from bot.service.keys import update_key
from bot.storage import LocalRedis, RedisStore
from fevga import format_play
from fevga.match import game_kind

from .conftest import ALICE, HERE, FakeClock
from .helpers import random_play
from .test_tavli_service import ScoreSeeingAI


@pytest.fixture
async def two(redis_server: LocalRedis, clock: FakeClock) -> AsyncIterator[list[tuple[GameService, ScoreSeeingAI]]]:
    stores = [RedisStore.from_url(redis_server.url) for _ in range(2)]
    await stores[0].client.flushall()
    ais = [ScoreSeeingAI(), ScoreSeeingAI()]
    yield [(GameService(store, clock=clock, ai=ai), ai) for store, ai in zip(stores, ais, strict=True)]  # type: ignore[arg-type]
    for store in stores:
        await store.close()


async def test_two_instances_and_redelivered_moves_give_the_ai_the_stored_score(
    two: list[tuple[GameService, ScoreSeeingAI]],
) -> None:
    (first, _), (second, _) = two
    started = await first.play_ai(ALICE, HERE, level="hard", length=3, kind="tavli")
    assert started.ok and started.view is not None
    game_id, rng, result, moves = started.view.game_id, random.Random(12), started, 0
    while result.view is not None and result.view.status == "play":
        text = format_play(random_play(result.view, rng))
        key = update_key("chat", "msg", moves)
        answers = await asyncio.gather(*(s.move(ALICE, HERE, text, game_id=game_id, idem=key) for s, _ in two))
        assert all(a.ok for a in answers), [a.messages for a in answers]
        assert answers[0].to_dict() == answers[1].to_dict()  # one effect, one answer
        result, moves = answers[0], moves + 1
        assert moves < 2000
    assert result.view is not None and result.view.status == "done"
    games = (await second.record(game_id)).messages[0].args["record"]["games"]
    before = [(0, 0)]  # the AI's points first (seat 1), before each game
    for rec in games:
        won, points = rec["outcome"]["winner"], rec["outcome"]["points"]
        mine, theirs = before[-1]
        before.append((mine + points, theirs) if won == 1 else (mine, theirs + points) if won == 0 else (mine, theirs))
    seen = [(score, game) for _, ai in two for score, game in ai.seen]
    assert all(ai.seen for _, ai in two), "both instances played AI turns"
    assert {score.number for score, _ in seen if score is not None} == set(range(1, len(games) + 1))
    for score, game in seen:
        assert score is not None and (score.length, score.kind) == (3, "tavli")
        assert game == game_kind("tavli", score.number)
        assert (score.mine, score.theirs) == before[score.number - 1]

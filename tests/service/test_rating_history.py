"""Each rated match adds a point (rating, RD) to both players' rating history on both boards (the graph's data)."""

from __future__ import annotations

import random

from bot.service import GameService, keys
from bot.service.stats_docs import parse_stats
from bot.storage import RedisStore
from tests.service.conftest import ALICE, BOB, HERE
from tests.service.helpers import play_out, start_game


async def test_each_rated_match_is_recorded_in_the_history(redis_store: RedisStore,
                                                           redis_service: GameService) -> None:
    ids = []
    for seed in (1, 2):
        started = await start_game(redis_service, ALICE, BOB, HERE)
        assert started.view is not None
        await play_out(redis_service, started, HERE, random.Random(seed))
        ids.append(started.view.game_id)
    for scope in (keys.board_scope("discord", HERE.scope_id), keys.board_scope("discord", None)):
        for player in (ALICE, BOB):
            rows = await redis_store.client.zrange(keys.rating_history(scope, player.user_id), 0, -1)
            points = [r.decode().split(":") for r in rows]
            assert [p[0] for p in points] == ids  # oldest first, one per rated match
            raw = await redis_store.client.get(keys.player_stats(scope, player.user_id))
            doc = parse_stats(raw)[1]
            assert float(points[-1][1]) == round(doc["r"], 1) and float(points[-1][2]) == round(doc["rd"], 1)

"""Seasons (issue 24): tallies counted as ratings are applied, the 5-match threshold, the month rollover with
the injected clock, exactly one post when two instances tick at the rollover, and the archive command."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

from bot.chat.presenter import present
from bot.chat.standings_reply import standings_picture
from bot.commands.executor import execute
from bot.commands.grammar import parse_command
from bot.commands.intents import Intent
from bot.service import GameService, PlayerRef, Result, keys
from bot.service.result_codec import decode_result
from bot.service.seasons import keys as season_keys
from bot.service.seasons.seasons import LOOK
from tests.service.conftest import HERE, make_service
from tests.service.helpers import start_game, until_both_moved
from tests.service.test_tournament_service import outbox_notices

NOV_END = datetime(2026, 11, 30, 22, 0, tzinfo=UTC).timestamp()
ADMIN = PlayerRef("discord", "1", "admin")


async def typed(service: GameService, text: str) -> Result:
    """A command line typed by the admin here, through the grammar and the executor."""
    intent = parse_command(text)
    assert isinstance(intent, Intent), intent
    return await execute(service, ADMIN, HERE, intent)


def field(n: int) -> list[PlayerRef]:
    return [PlayerRef("discord", str(500 + i), f"p{i}") for i in range(n)]


async def rated_match(service: GameService, a: PlayerRef, b: PlayerRef, rng: random.Random) -> None:
    """A rated match: both move, then ``b`` resigns it (``a`` wins)."""
    started = await until_both_moved(service, await start_game(service, a, b, HERE), HERE, rng)
    assert started.view is not None
    gave_up = await service.resign(b, HERE, whole_match=True, game_id=started.view.game_id)
    assert gave_up.ok, gave_up.messages


async def november(service: GameService, clock) -> list[PlayerRef]:
    """Six players; all pairs play once except p4 v p5: p0..p3 have 5 rated matches, p4 and p5 have 4."""
    clock.now = NOV_END
    rng = random.Random(3)
    people = field(6)
    for i, a in enumerate(people):
        for b in people[i + 1:]:
            if {a.user_id, b.user_id} != {people[4].user_id, people[5].user_id}:
                await rated_match(service, a, b, rng)
                clock.advance(60)
    return people


async def test_running_season_and_threshold(service, clock):
    """On every store (one Redis, memory, a Redis Cluster): each commit stays in one slot."""
    redis_service = service
    people = await november(redis_service, clock)
    shown = await redis_service.season_top(HERE)
    assert shown.ok, shown.messages
    assert shown.messages[0].key == "season_table_header" and shown.messages[0].args["month"] == "2026-11"
    rows = [m.args for m in shown.messages if m.key == "season_table_row"]
    assert sorted(r["name"] for r in rows) == ["p0", "p1", "p2", "p3"]  # p4 and p5: 4 matches, not ranked
    assert all(r["matches"] == 5 for r in rows)
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    board = keys.ratings(keys.board_scope("discord", HERE.scope_id))
    top = dict((await redis_service.store.read([("ztop", board, 10)]))[0])
    assert all(round(top[p.user_id]) == r["rating"] for p in people for r in rows if r["name"] == p.name)
    (short,) = [m for m in shown.messages if m.key == "season_short"]
    assert short.args["count"] == 2
    # p4 plays one more (against p0): now he has 5 and is ranked
    await rated_match(redis_service, people[4], people[0], random.Random(9))
    again = await redis_service.season_top(HERE)
    assert "p4" in [m.args["name"] for m in again.messages if m.key == "season_table_row"]
    clock.now = season_keys.month_end("2026-11")
    (closed,) = await redis_service.tick()
    assert closed.messages[0].key == "season_table_final" and len(closed.messages) == 1 + 5 + 1  # p5 still short
    clock.advance(LOOK + 1)  # the next look at the due sets: nothing is left to close
    assert await redis_service.tick() == []


async def test_rollover_posts_once_across_two_instances(redis_store, clock):
    one, two = make_service(redis_store, clock), make_service(redis_store, clock)
    await november(one, clock)
    assert await one.seasons.tick() == [] and await two.seasons.tick() == []  # November is not over
    before = [m.args for m in (await one.season_top(HERE)).messages if m.key == "season_table_row"]
    clock.now = season_keys.month_end("2026-11") + 5
    # a December match of the leader before the close: the season keeps his rating at November's end
    leader = next(p for p in field(6) if p.name == before[0]["name"])
    other = next(p for p in field(6) if p.name == before[-1]["name"])
    await rated_match(one, other, leader, random.Random(4))
    told = await asyncio.gather(one.tick(), two.tick(), one.tick(), two.tick())
    posts = [r for batch in told for r in batch if r and r.messages and r.messages[0].key == "season_table_final"]
    assert len(posts) == 1
    assert posts[0].place is not None and posts[0].place.channel_id == HERE.channel_id
    notices = [decode_result(raw) for raw in await outbox_notices(redis_store)]
    finals = [n for n in notices if n and n.messages and n.messages[0].key == "season_table_final"]
    assert len(finals) == 1  # one outbox entry, written by the closing commit
    rows = [m.args for m in finals[0].messages if m.key == "season_table_row"]
    assert rows == before  # ratings at the season's end, not after the December match
    (post,) = await present(finals[0], "en")  # what the outbox consumer posts: the text and the picture
    assert post.text.startswith("Season 2026-11 of Fevga is over") and post.image_name == "standings.png"
    assert post.image is not None and post.image.startswith(b"\x89PNG")
    clock.advance(LOOK + 1)  # the next look at the due sets: closed, nothing more
    assert await one.tick() == [] and await two.tick() == []
    # the archive: text and picture, through the chat command
    archived = await typed(one, "top season 2026-11")
    assert archived.ok and archived.messages[0].key == "season_table_final"
    assert [m.args for m in archived.messages if m.key == "season_table_row"] == before
    picture = standings_picture(archived.messages, "el")
    assert picture is not None and picture.startswith(b"\x89PNG")
    for words in ("top season last", "top σεζόν προηγούμενη"):  # December runs: the last season is November's
        last = await typed(one, words)
        assert last.ok and [m.args for m in last.messages] == [m.args for m in archived.messages], words
    # December's season is running: the leader's one December match is below the threshold
    running = await typed(one, "top season")
    assert running.ok and running.messages[0].args["month"] == "2026-12"
    assert [m.key for m in running.messages[1:]] == ["season_table_empty", "season_short"]
    assert standings_picture(running.messages, "en") is None  # said in words: a picture of empty heads says nothing


async def test_archive_refusals_and_season_off(redis_service, clock):
    clock.now = NOV_END
    bad = await typed(redis_service, "top season 2026-13")
    assert bad.error_key == "season_bad_month"
    missing = await typed(redis_service, "top season 2025-01")
    assert missing.error_key == "season_no_archive"
    assert (await redis_service.set_setting(ADMIN, HERE, "season", "weekly", is_admin=True)).error_key \
        == "setting_bad_value"
    rng = random.Random(5)
    people = field(2)
    for _ in range(2):
        await rated_match(redis_service, people[0], people[1], rng)
    changed = await redis_service.set_setting(ADMIN, HERE, "season", "off", is_admin=True)
    assert changed.ok
    assert (await redis_service.season_top(HERE)).error_key == "season_off"
    clock.now = season_keys.month_end("2026-11") + 1
    assert await redis_service.seasons.tick() == []  # off: nothing posted, nothing archived
    bucket = season_keys.home_of(keys.board_scope("discord", HERE.scope_id))
    assert (await redis_service.store.read([("zcard", season_keys.due(bucket))]))[0] == 0
    await redis_service.set_setting(ADMIN, HERE, "season", "monthly", is_admin=True)
    assert (await typed(redis_service, "top season 2026-11")).error_key \
        == "season_no_archive"


async def test_a_month_before_any_season_is_a_month_with_no_season(redis_service, clock):
    """``top season 1999-01`` is a real month: the answer is that no season was kept then, not "not a month"."""
    clock.now = NOV_END
    old = await typed(redis_service, "top season 1999-01")
    assert old.error_key == "season_no_archive" and old.messages[0].args["month"] == "1999-01"
    assert (await typed(redis_service, "top season 1999-00")).error_key == "season_bad_month"

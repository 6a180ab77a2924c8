"""Data stored before Portes, Plakoto and tavli (no ``kind`` anywhere, the leaderboards at their old keys) are
written literally to a real Redis and read back through the service: they load as Fevga, play on, and the
ratings stay on Fevga's board; no migration step is needed."""

from __future__ import annotations

import json
import random
import zlib

from bot.service import GameService, keys
from bot.service.ai import RandomAI
from bot.storage import RedisStore
from fevga import format_play

from .conftest import ALICE, BOB, CAROL, HERE, FakeClock
from .helpers import random_play, until_both_moved

OLD_SESSION_FIELDS = {"sv", "id", "pl", "p", "n", "sc", "gn", "st", "t0", "ts", "ds", "tv", "g"}
OLD_GAME_FIELDS = {"first", "opening", "turns", "resigned", "position", "turn", "s"}


def old_doc(rating: float, wins: int, losses: int, name: str) -> bytes:
    """A rating document exactly as the bot wrote it before tavli (versioned JSON)."""
    doc = {"r": rating, "rd": 120.0, "vol": 0.06, "w": wins, "l": losses, "pts": wins, "mars": 0,
           "st": 1 if wins else -1, "best": wins, "g": wins + losses, "name": name}  # fmt: skip
    return b"1:" + json.dumps(doc, separators=(",", ":")).encode()


async def test_an_old_challenge_and_game_load_as_fevga_and_play_on(redis_store: RedisStore, clock: FakeClock) -> None:
    writer = GameService(redis_store, clock=clock, ai=RandomAI(seed=2))
    made = await writer.challenge(ALICE, HERE, BOB, length=3)
    assert made.ok
    (cid,) = [k.decode().rsplit(":", 1)[1] async for k in redis_store.client.scan_iter("fevga:*:c:*")]
    old_challenge = json.dumps({
        "id": cid, "from": ["discord", "100", "alice"], "to": ["discord", "200", "bob"],
        "place": ["discord", "guild1", "chan1"], "n": 3, "r": {"unlock_point": 13},
        "created": clock(), "exp": clock() + 600, "quick": False,
    }).encode()  # fmt: skip
    await redis_store.client.set(keys.challenge(cid), b"1:" + old_challenge)

    reader = GameService(redis_store, clock=clock, ai=RandomAI(seed=3))  # a fresh instance: nothing cached
    started = await reader.accept(BOB, HERE)
    assert started.ok and started.view is not None, started.messages
    assert (started.view.kind, started.view.game, started.view.match_length) == ("fevga", "fevga", 3)
    gid = started.view.game_id

    raw = await redis_store.client.get(keys.game(gid))
    version, blob = raw.split(b":", 1)
    doc = json.loads(zlib.decompress(blob))
    assert set(doc) == OLD_SESSION_FIELDS and set(doc["g"]) == OLD_GAME_FIELDS  # a Fevga game: the old shape
    await redis_store.client.set(keys.game(gid), version + b":" + zlib.compress(json.dumps(doc).encode()))

    again = GameService(redis_store, clock=clock, ai=RandomAI(seed=4))
    view = (await again.board(ALICE, HERE)).view
    assert view is not None and (view.kind, view.game, view.game_no) == ("fevga", "fevga", 1)
    assert ":" in view.position_id and not view.position_id.startswith(("portes:", "plakoto:"))
    moved = await again.move(view.players[view.turn], HERE, format_play(random_play(view, random.Random(1))))
    assert moved.ok and moved.view is not None and moved.view.kind == "fevga", moved.messages
    exported = await again.export(ALICE, HERE)
    text = next(m.args["text"] for m in exported.messages if m.key == "export")
    assert "Tavli" not in text and "Portes" not in text


async def test_old_ratings_are_fevgas_board(redis_store: RedisStore, clock: FakeClock) -> None:
    client = redis_store.client
    for scope in ("discord:guild1", "discord:*"):  # the old keys, written literally
        await client.zadd(f"fevga:{{r:{scope}}}:z", {"100": 1650.0, "200": 1450.0})
        await client.set(f"fevga:{{r:{scope}}}:p:100", old_doc(1650.0, 3, 1, "alice"))
        await client.set(f"fevga:{{r:{scope}}}:p:200", old_doc(1450.0, 1, 3, "bob"))
    service = GameService(redis_store, clock=clock, ai=RandomAI(seed=5))

    def names(result) -> list[str]:  # type: ignore[no-untyped-def]
        return [m.args["name"] for m in result.messages if m.key == "top_row"]

    assert names(await service.top(HERE)) == ["alice", "bob"]
    assert names(await service.top(HERE, kind="fevga")) == ["alice", "bob"]
    assert names(await service.top(HERE, kind="fevga", global_=True)) == ["alice", "bob"]
    for kind in ("portes", "plakoto", "tavli"):
        assert not names(await service.top(HERE, kind=kind))
    stats = await service.stats(ALICE, HERE)
    assert [m.key for m in stats.messages][:2] == ["stats", "stats_global"]
    assert stats.messages[0].args["wins"] == 3 and not any(m.key == "stats_of_game" for m in stats.messages)

    # a tavli match between them leaves the old Fevga board as it was
    assert (await service.challenge(ALICE, HERE, BOB, kind="tavli")).ok
    started = await service.accept(BOB, HERE)
    await until_both_moved(service, started, HERE, random.Random(6))
    assert (await service.resign(ALICE, HERE, whole_match=True)).ok
    assert await client.zscore("fevga:{r:discord:guild1}:z", "100") == 1650.0
    assert await client.get("fevga:{r:discord:guild1}:p:100") == old_doc(1650.0, 3, 1, "alice")
    assert names(await service.top(HERE, kind="tavli")) == ["bob", "alice"]
    # and a new player's first Fevga match joins the old board
    assert (await service.challenge(CAROL, HERE, BOB)).ok
    started = await service.accept(BOB, HERE)
    await until_both_moved(service, started, HERE, random.Random(7))
    assert (await service.resign(CAROL, HERE, whole_match=True)).ok
    assert set(names(await service.top(HERE))) == {"alice", "bob", "carol"}

"""The service's structure: every public command is guarded by ``@command`` (signature kept), typed reads
go out in one round trip, and no service module grows past 300 lines."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import bot.service
from bot.service import GameService, keys
from bot.service.models import Place
from bot.service.reads import Reads, read_one
from bot.storage import MemoryStore
from bot.storage.base import Commit

GUARDED = {
    "challenge", "accept", "decline", "cancel", "play_ai", "rematch", "move", "step", "undo", "confirm",
    "resign", "resign_prompt", "abort", "claim", "board", "hint", "top", "stats", "export", "record",
    "settings", "set_setting", "view_of", "analyze", "game_analysis", "mygames",
    "dice", "season_top", "player_gone",
    "puzzle", "puzzle_answer", "puzzle_step", "top_puzzles",
}  # fmt: skip


def test_exactly_the_commands_are_guarded_with_their_signatures() -> None:
    members = {name: member for cls in GameService.__mro__ for name, member in vars(cls).items()}
    guarded = {name for name, member in members.items() if hasattr(member, "__wrapped__")}
    assert guarded == GUARDED
    for name in GUARDED:
        method = getattr(GameService, name)
        assert inspect.signature(method) == inspect.signature(method.__wrapped__)
        assert inspect.iscoroutinefunction(method)


async def test_the_guard_turns_a_store_failure_into_a_result(monkeypatch: pytest.MonkeyPatch) -> None:
    service = GameService(MemoryStore())

    async def down(requests: Sequence[Any]) -> list[Any]:
        raise ConnectionError("store down")

    monkeypatch.setattr(service.store, "read", down)
    result = await service.top(Place("discord", "g", "c"))
    assert not result.ok and result.error_key == "store_unavailable"


class CountingStore(MemoryStore):
    """Counts read round trips."""

    reads = 0

    async def read(self, requests: Sequence[Any]) -> list[Any]:
        self.reads += 1
        return await super().read(requests)


async def test_reads_run_in_one_round_trip_and_fill_typed_handles() -> None:
    store = CountingStore()
    place = Place("discord", "g", "c")
    await store.commit(Commit().hset(keys.channel_games(place), "u1", "game1"))
    reads = Reads()
    running = reads.hget(keys.channel_games(place), "u1")
    missing = reads.hget(keys.channel_games(place), "u2")
    every = reads.hgetall(keys.channel_games(place))
    no_key = reads.idem("discord", None)
    with pytest.raises(RuntimeError):
        _ = running.value
    await reads.run(store)
    assert store.reads == 1
    assert (running.value, missing.value, every.value, no_key.value) == ("game1", None, {"u1": "game1"}, None)
    await Reads().run(store)
    assert store.reads == 1  # an empty batch sends nothing
    assert await read_one(store, lambda r: r.zcard(keys.ratings("discord:*"))) == 0
    assert store.reads == 2


def test_no_service_module_over_300_lines() -> None:
    folder = Path(bot.service.__file__).parent
    sizes = {p.name: len(p.read_text().splitlines()) for p in folder.glob("*.py")}
    assert sizes and max(sizes.values()) <= 300, sizes

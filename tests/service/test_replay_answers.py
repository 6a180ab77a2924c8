"""``replay`` tells the truth: a called-off game, a game with no plays and a game still being played have
nothing to replay and say so; only a record that does not decode is called damaged; a sound record that
fails to draw gets its own error. On a real Redis."""

from __future__ import annotations

import random
from typing import Any

import pytest

import bot.chat.replay
from bot.chat.replay import replay_reply
from bot.i18n import translate
from bot.service import GameService, Place, PlayerRef, keys
from bot.service.reads import read_one
from bot.service.record_codec import pack, unpack
from bot.storage import RedisStore
from bot.storage.base import Commit
from fevga import FairDice, Game, game_to_dict

from .conftest import FakeClock, make_service
from .helpers import play_out, start_game, until_both_moved

A = PlayerRef("discord", "1", "Alice")
B = PlayerRef("discord", "2", "Bob")
HERE = Place("discord", "g", "c")


@pytest.fixture
def service(redis_store: RedisStore, clock: FakeClock) -> GameService:
    return make_service(redis_store, clock)


async def answer(service: GameService, lang: str = "en") -> tuple[str, bytes | None]:
    [reply] = await replay_reply(service, A, HERE, lang)
    return reply.text, reply.image


async def finished_game(service: GameService) -> str:
    """A one-point match between Alice and Bob, played to its end; its id."""
    started = await start_game(service, A, B, HERE)
    final, _turns = await play_out(service, started, HERE, random.Random(4))
    assert final.view is not None and final.view.status != "play"
    return final.view.game_id


async def rewrite_record(service: GameService, gid: str, change: Any) -> None:
    """Apply ``change`` to the kept record of game 1 of ``gid`` and store it back."""
    key = keys.game_record(gid, 1)
    raw = await read_one(service.store, lambda r: r.get(key))
    assert raw is not None
    record = unpack(raw)
    change(record)
    await service.store.commit(Commit().put(key, pack(record)))


@pytest.mark.parametrize("lang", ["en", "el"])
async def test_a_called_off_game_is_not_reported_as_damaged(service: GameService, lang: str) -> None:
    started = await start_game(service, A, B, HERE)
    assert started.view is not None
    assert (await service.abort(A, HERE)).ok
    text, image = await answer(service, lang)
    assert text == translate("replay_called_off", lang, game_id=started.view.game_id) and image is None
    assert text != translate("corrupt_game", lang, game_id=started.view.game_id)


async def test_a_game_still_played_waits_for_its_end(service: GameService) -> None:
    started = await start_game(service, A, B, HERE)
    assert started.view is not None
    await until_both_moved(service, started, HERE, random.Random(2))
    text, image = await answer(service)
    assert text == translate("replay_running", "en", game_id=started.view.game_id) and image is None


async def test_a_finished_game_is_replayed(service: GameService) -> None:
    gid = await finished_game(service)
    text, image = await answer(service)
    assert text == translate("replay_ready", "en", game_id=gid)
    assert image is not None and image[:6] == b"GIF89a"


async def test_during_the_next_game_of_a_match_the_finished_one_is_replayed(service: GameService) -> None:
    started = await start_game(service, A, B, HERE, length=5)
    assert started.view is not None
    both = await until_both_moved(service, started, HERE, random.Random(3))
    assert both.view is not None
    assert (await service.resign(both.view.players[both.view.turn], HERE)).ok  # game 1 over, game 2 starts
    text, image = await answer(service)
    assert text == translate("replay_ready", "en", game_id=started.view.game_id) and image is not None


async def test_a_record_that_does_not_decode_is_damaged(service: GameService) -> None:
    gid = await finished_game(service)

    def tamper(record: dict[str, Any]) -> None:
        record["game"]["dice"]["seed"] = "00" * 32  # no longer the seed of the commitment

    await rewrite_record(service, gid, tamper)
    text, image = await answer(service)
    assert text == translate("corrupt_game", "en", game_id=gid) and image is None


async def test_a_game_with_no_plays_says_so(service: GameService) -> None:
    gid = await finished_game(service)
    game = Game.new(dice=FairDice(bytes(range(32))))
    game.resign(game.turn)  # over before anyone moved: a sound record with no plays

    def unplayed(record: dict[str, Any]) -> None:
        record["game"] = game_to_dict(game, reveal_seed=True)

    await rewrite_record(service, gid, unplayed)
    text, image = await answer(service)
    assert text == translate("replay_no_plays", "en", game_id=gid) and image is None


async def test_a_sound_record_that_fails_to_draw_is_not_called_damaged(service: GameService,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await finished_game(service)

    def too_big(*_args: Any, **_kwargs: Any) -> bytes:
        raise ValueError("the replay does not fit in the byte budget")

    monkeypatch.setattr(bot.chat.replay, "render_replay", too_big)
    text, image = await answer(service)
    assert text == translate("replay_failed", "en", game_id=gid) and image is None

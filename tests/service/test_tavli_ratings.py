"""One Glicko-2 board per kind of match: a tavli match rates tavli only, a Plakoto match Plakoto only;
``top`` shows the place's default game, ``top plakoto`` / ``top tavli`` theirs, ``stats`` each."""

from __future__ import annotations

import random

from bot.service import GameService, PlayerRef, Result

from .conftest import ALICE, BOB, CAROL, HERE
from .helpers import until_both_moved


async def _won_by_bob(service: GameService, kind: str, loser: PlayerRef = ALICE) -> None:
    """A rated match of ``kind`` against Bob that ``loser`` resigns once both have moved."""
    assert (await service.challenge(loser, HERE, BOB, kind=kind)).ok
    started = await service.accept(BOB, HERE)
    assert started.ok, started.messages
    await until_both_moved(service, started, HERE, random.Random(9))
    done = await service.resign(loser, HERE, whole_match=True)
    assert done.ok and done.view is not None and done.view.status == "done"


def _names(result: Result) -> list[str]:
    """The names on a leaderboard answer, best first."""
    return [m.args["name"] for m in result.messages if m.key == "top_row"]


async def test_each_kind_has_its_own_board(service: GameService) -> None:
    await _won_by_bob(service, "tavli")
    empty = (await service.top(HERE)).messages  # Fevga's board: nothing yet, said with its game and the others
    assert [m.key for m in empty] == ["top_empty", "top_other_boards"] and empty[0].args["kind"] == "fevga"
    assert empty[1].args["others"] == "top portes, top plakoto, top tavli"
    tavli = await service.top(HERE, kind="tavli")
    assert tavli.messages[0].key == "top_of_game" and tavli.messages[0].args["kind"] == "tavli"
    assert _names(tavli) == ["bob", "alice"]
    for kind in ("portes", "plakoto", "fevga"):  # the games a tavli match played are not rated on their own
        assert not _names(await service.top(HERE, kind=kind))
    await _won_by_bob(service, "plakoto", loser=CAROL)
    assert _names(await service.top(HERE, kind="plakoto")) == ["bob", "carol"]
    assert _names(await service.top(HERE, kind="tavli")) == ["bob", "alice"]  # unchanged
    assert _names(await service.top(HERE, kind="plakoto", global_=True)) == ["bob", "carol"]
    # a bare top shows the place's default game
    assert (await service.set_setting(ALICE, HERE, "default_game", "πλακωτό", is_admin=True)).ok
    assert _names(await service.top(HERE)) == ["bob", "carol"]
    # stats: each game he has played, named; nothing of Fevga, which he has not played (no unnamed "none" lines)
    stats = await service.stats(BOB, HERE)
    keys = [m.key for m in stats.messages]
    assert keys[0] == "stats_of_game" and "stats_none" not in keys and "stats_none_global" not in keys
    games = [m.args["kind"] for m in stats.messages if m.key == "stats_of_game"]
    assert games == ["plakoto", "tavli"]
    nobody = await service.stats(PlayerRef("discord", "400", "dave"), HERE)  # no rated match at all
    assert [m.key for m in nobody.messages] == ["stats_none_global"]  # said once, not "none here" and "none"
    rows = [m for m in stats.messages if m.key == "stats"]
    assert [r.args["wins"] for r in rows] == [1, 1]


async def test_fevga_ratings_stay_where_they_were(service: GameService) -> None:
    await _won_by_bob(service, "fevga")
    top = await service.top(HERE)
    assert top.messages[0].key == "top_header" and _names(top) == ["bob", "alice"]
    assert not _names(await service.top(HERE, kind="tavli"))
    stats = await service.stats(BOB, HERE)
    assert [m.key for m in stats.messages][:2] == ["stats", "stats_global"]
    assert not any(m.key == "stats_of_game" for m in stats.messages)

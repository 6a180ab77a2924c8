"""The page's API for Portes and Plakoto: the state names the game and carries the bars, pins and the last
play's hits in seat 0's numbering (seat 1's point p is 25 - p), its moves replay to the position, and the
steps endpoint enters from the bar (point 0) with hits marked as the engine says. Old sessions read as Fevga."""

from __future__ import annotations

from typing import Any

from bot.chat.core import BotCore
from bot.service import keys
from bot.service.session import decode
from bot.storage.base import split_versioned
from bot.web.state import base_state
from fevga import Game
from tests.browser.tavli import store_game, tavli_game

from .kit import ALICE, BOB, Site, start_game


def on_bar(game: Game) -> bool:
    return game.dice is not None and game.view(game.turn).me_bar > 0 and bool(  # type: ignore[attr-defined]
        game.step_options([]).hitting)


async def stored(site: Site, core: BotCore, game: Game) -> tuple[str, dict[str, Any]]:
    gid = await start_game(core)
    await store_game(core, gid, game)
    return gid, await site.state(gid)


async def test_a_portes_state_has_bars_hits_and_replays(site: Site, core: BotCore) -> None:
    game = tavli_game("portes", lambda g: g.view(0).me_bar > 0 and g.view(0).opp_bar > 0)  # type: ignore[attr-defined]
    _gid, st = await stored(site, core, game)
    pos0 = game.view(0)
    assert st["kind"] == "portes" and st["match"]["kind"] == "portes"
    assert st["points"] == list(pos0.board) and st["bar"] == [pos0.me_bar, pos0.opp_bar]  # type: ignore[attr-defined]
    assert st["pins"] == [0] * 24 and st["replay_ok"] is True
    assert st["moves"][-1]["points"] == st["points"] and st["moves"][-1]["bar"] == st["bar"]
    last = game.last_play
    assert last is not None and st["last_play"]["hits"] == list(last.hits)
    assert sum(any(m["hits"]) for m in st["moves"]) >= 1  # the hits that sent checkers to the bar
    assert st["start_points"][0] == 2 and st["start_points"][23] == -2  # Portes's start, seat 1 from 25 - p


async def test_a_plakoto_state_has_pins(site: Site, core: BotCore) -> None:
    game = tavli_game("plakoto", lambda g: 1 in g.view(0).pins and -1 in g.view(0).pins)  # type: ignore[attr-defined]
    _gid, st = await stored(site, core, game)
    assert st["kind"] == "plakoto" and st["pins"] == list(game.view(0).pins)  # type: ignore[attr-defined]
    seat1 = game.view(1)
    for p in range(1, 25):  # seat 1's own point p is seat 0's 25 - p
        assert st["points"][25 - p - 1] == -seat1.board[p - 1]
        assert st["pins"][25 - p - 1] == -seat1.pins[p - 1]  # type: ignore[attr-defined]
    assert st["replay_ok"] is True


async def test_steps_enter_from_the_bar_with_hits_marked(site: Site, core: BotCore) -> None:
    game = tavli_game("portes", on_bar)
    gid, st = await stored(site, core, game)
    mover = (ALICE, BOB)[game.turn] if st["seats"][0]["name"] == "Alice" else (BOB, ALICE)[game.turn]
    status, ans = await site.post(gid, "steps", {"version": st["version"], "pending": []}, mover)
    assert status == 200, ans
    engine = game.step_options([])
    assert {o["from"] for o in ans["options"]} == {0}  # the bar first
    assert {(o["from"], o["die"]) for o in ans["options"] if o["hit"]} == set(engine.hitting)
    hit = next(o for o in ans["options"] if o["hit"])
    status, ans = await site.post(gid, "steps", {"version": st["version"], "pending": [[0, hit["to"]]]}, mover)
    assert status == 200, ans
    assert ans["steps"] == [[0, hit["to"]]] and ans["hits"] == [True] and ans["text"].startswith(f"bar/{hit['to']}*")
    again = await site.state(gid)
    assert again["version"] == st["version"]  # building a play stores nothing


async def test_fevga_refuses_the_bar_and_old_sessions_read_as_fevga(site: Site, core: BotCore) -> None:
    gid = await start_game(core)
    st = await site.state(gid)
    assert st["kind"] == "fevga" and st["match"]["kind"] == "fevga" and st["bar"] == [0, 0] and st["pins"] == [0] * 24
    mover = (ALICE, BOB)[st["turn"]] if st["seats"][0]["name"] == "Alice" else (BOB, ALICE)[st["turn"]]
    status, ans = await site.post(gid, "steps", {"version": st["version"], "pending": [[0, 3]]}, mover)
    assert status == 400 and ans["code"] == "bad_step"
    status, ans = await site.post(gid, "steps", {"version": st["version"], "pending": [[-1, 3]]}, mover)
    assert status == 400 and ans["code"] == "bad_request"


async def test_the_match_kind_comes_from_the_stored_match(site: Site, core: BotCore) -> None:
    """A session that names its match's kind (the chats store "tavli") shows it; without one, the game's."""
    game = tavli_game("plakoto", lambda g: len(g.history) > 2)
    gid, _st = await stored(site, core, game)
    raw = (await core.store.read([("get", keys.game(gid))]))[0]
    version, blob = split_versioned(raw)
    session = decode(blob)
    assert base_state(session, version)["match"]["kind"] == "plakoto"
    session.kind = "tavli"  # type: ignore[attr-defined]
    state = base_state(session, version)
    assert state["match"]["kind"] == "tavli" and state["kind"] == "plakoto"

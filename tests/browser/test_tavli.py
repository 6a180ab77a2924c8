"""Portes and Plakoto on the page in Chromium: each viewer sees the engine's position from his side (his
numbering, the opponent moving the other way), Portes's bar checkers in the middle, Plakoto's pinned checkers
under their pinners with a mark, the last play's arrows with hits and pins marked, the game's name in the
heading (once: not again on the match line); and in the Mini App a Portes play built by dragging a checker in
from the bar."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page

from fevga import Game
from fevga.play import format_play
from renderers.from_game import replay_scenes
from tests.fakes.telegram import FakeTelegram, FakeUser
from tests.telegram.harness import Chat, CoreSpy, actor_ref, game_view, group_place
from tests.telegram.scenes import group_game

from .harness import ARTIFACTS, Chromium, Site, init_data
from .tavli import READ_TAVLI, drawn_tavli, position_view, store_game, tavli_game, tavli_view
from .test_play import IDLE, centre, mini_app_url, open_as


def both_bars(game: Game) -> bool:
    pos = game.view(0)
    return pos.me_bar > 0 and pos.opp_bar > 0  # type: ignore[attr-defined]


def pins_of_both(game: Game) -> bool:
    pins = game.view(0).pins  # type: ignore[attr-defined]
    return 1 in pins and -1 in pins and bool(game.last_play and any(game.last_play.hits))


def enters_with_a_hit(game: Game) -> bool:
    """The player to move has a checker on the bar and one way in hits."""
    if game.dice is None or game.view(game.turn).me_bar == 0:  # type: ignore[attr-defined]
        return False
    return any(src == 0 for src, _die in game.step_options([]).hitting)


async def players(fake: FakeTelegram, chat: Chat, core: CoreSpy, game: Game) -> tuple[str, int, list[FakeUser]]:
    """A group game whose stored game is replaced by ``game``: (game id, version, the users by seat)."""
    alice, bob, room, _board = await group_game(fake, chat, core)
    view = await game_view(core, actor_ref(alice), group_place(room))
    version = await store_game(core.real, view.game_id, game)
    by_id = {"101": alice, "102": bob}
    return view.game_id, version, [by_id[view.players[seat].user_id] for seat in (0, 1)]


async def open_seat(browser: Chromium, site: Site, gid: str, version: int, user: FakeUser) -> Page:
    data = init_data(site_token(site), user.id, user.first_name)
    return await open_as(browser, mini_app_url(site, gid, data), version, viewport={"width": 390, "height": 800})


def site_token(site: Site) -> str:
    token = site.config.telegram_token
    assert token
    return token


def last_play_arrows(game: Game, seat: int) -> list[list[Any]]:
    """The last play's steps as the viewer at ``seat`` should see the arrows: [from, to, hit] in his numbering."""
    last = game.last_play
    assert last is not None and last.steps
    mine = last.player == seat
    out = []
    for (a, b), hit in zip(last.steps, last.hits, strict=True):
        src = "0" if a == 0 else str(a if mine else 25 - a)
        dst = "off" if b >= 25 else str(b if mine else 25 - b)
        out.append([src, dst, hit])
    return out


async def test_a_portes_position_with_hits_is_drawn_as_the_engine_says_from_each_side(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
):
    game = tavli_game("portes", both_bars)
    gid, version, users = await players(fake, chat, core, game)
    for seat in (0, 1):
        page = await open_seat(browser, site, gid, version, users[seat])
        assert await page.evaluate("() => FV.app.state.kind") == "portes"
        drawn = await drawn_tavli(page, seat)
        want = tavli_view(game, seat)
        assert drawn["points"] == want["points"]
        assert drawn["bar"] == want["bar"] and min(want["bar"]) > 0  # both bars, drawn in the middle
        assert drawn["off"] == want["off"]
        assert drawn["pins"] == [0] * 24
        bars = drawn["raw"]["bar"]
        assert [b["colour"] for b in bars] == [seat, 1 - seat]  # his above the middle, the opponent's below
        assert [b["drawn"] for b in bars] == [min(n, 5) for n in want["bar"]]
        assert sorted(drawn["raw"]["arrows"]) == sorted(last_play_arrows(game, seat))
        assert any(hit for _a, _b, hit in drawn["raw"]["arrows"])  # the last play hit: its arrow is marked
        assert await page.locator("#board path.hitmark").count() == sum(game.last_play.hits)  # type: ignore[union-attr]
        assert await page.text_content("#title") == "Portes"
        assert "Portes" not in (await page.text_content("#match") or "")  # the game's name once
        ARTIFACTS.mkdir(exist_ok=True)
        await page.locator("#board").screenshot(path=str(ARTIFACTS / f"portes-seat{seat}.png"))
        if seat == 0:  # the replay slider: the position after each turn, bars included, as the engine replays it
            scenes = replay_scenes(game, ("A", "B"))
            shown = [i for i, sc in enumerate(scenes[:-1]) if sc.position.me_bar or sc.position.opp_bar][:3]  # type: ignore[attr-defined]
            assert shown, "an earlier turn with a checker on the bar"
            for i in shown:
                await page.fill("#slider", str(i))
                seen = await drawn_tavli(page, 0)
                want = position_view(scenes[i].position)
                assert (seen["points"], seen["bar"], seen["off"]) == (want["points"], want["bar"], want["off"]), i
        await page.close()


async def test_a_plakoto_position_with_pins_is_drawn_as_the_engine_says_from_each_side(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
):
    game = tavli_game("plakoto", pins_of_both)
    gid, version, users = await players(fake, chat, core, game)
    for seat in (0, 1):
        page = await open_seat(browser, site, gid, version, users[seat])
        drawn = await drawn_tavli(page, seat)
        want = tavli_view(game, seat)
        assert drawn["points"] == want["points"] and drawn["off"] == want["off"]
        assert drawn["pins"] == want["pins"] and 1 in want["pins"] and -1 in want["pins"]
        for p, pin in enumerate(want["pins"], start=1):
            point = drawn["raw"]["points"][p - 1]
            if pin:  # under its pinner, at the point's edge, with the mark; not counted in the stack
                assert point["pinnedBelow"] is True and point["mark"] is True, p
            else:
                assert point["mark"] is False, p
        for p, colour in drawn["raw"]["mothers"]:  # a mother is only ever on its owner's starting point
            assert (p, colour) in ((1, seat), (24, 1 - seat)), (p, colour)
        assert sorted(drawn["raw"]["arrows"]) == sorted(last_play_arrows(game, seat))
        label = await page.get_attribute(f'#board [data-point="{want["pins"].index(-1) + 1}"]', "aria-label")
        assert label is not None and "pinning" in label
        assert await page.text_content("#title") == "Plakoto"
        assert "Plakoto" not in (await page.text_content("#match") or "")  # the game's name once
        ARTIFACTS.mkdir(exist_ok=True)
        await page.locator("#board").screenshot(path=str(ARTIFACTS / f"plakoto-seat{seat}.png"))
        await page.close()


async def test_a_pinned_mother_is_marked(fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site,
                                         browser: Chromium):
    game = tavli_game("plakoto", lambda g: g.view(0).pins[0] == 1)  # type: ignore[attr-defined]
    gid, version, users = await players(fake, chat, core, game)
    page = await open_seat(browser, site, gid, version, users[0])
    seen = await page.evaluate(READ_TAVLI)
    assert seen["points"][0]["pinned"] == 0 and seen["points"][0]["mark"] is True
    assert [1, 0] in seen["mothers"]  # seat 0's mother, pinned on his point 1
    # the match line of a tavli match (the chats store the match's kind): which game of the rotation, the score
    await page.evaluate("""() => { const st = FV.app.state;
        st.match = {...st.match, kind: 'tavli', length: 5, game_no: 2, score: [1, 0]}; FV.app.render(); }""")
    assert await page.text_content("#match") == "game 2 of tavli to 5 · 1–0"  # the board's words, no game name
    assert await page.text_content("#title") == "Plakoto"
    await page.close()


async def test_a_portes_play_dragged_in_from_the_bar_in_the_mini_app(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
):
    game = tavli_game("portes", enters_with_a_hit)
    gid, version, users = await players(fake, chat, core, game)
    seat = game.turn
    page = await open_seat(browser, site, gid, version, users[seat])
    await page.wait_for_function(IDLE)
    assert await page.evaluate("() => FV.app.play.sources()") == [0]  # a checker on the bar enters first
    before = await drawn_tavli(page, seat)
    hits = await page.evaluate("() => FV.app.play.options.filter((o) => o.from === 0 && o.hit).map((o) => o.to)")
    assert hits, "the engine offers an entry that hits"
    dst = hits[0]
    x0, y0 = await centre(page, 0)
    x1, y1 = await centre(page, dst)
    await page.mouse.move(x0, y0)
    await page.mouse.down()
    await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    await page.mouse.move(x1, y1, steps=4)
    # while dragging, the destinations light up, and the ones where the entry hits are marked
    assert await page.locator(f'#board [data-point="{dst}"] circle.dot.hit').count() == 1
    assert await page.locator("#board circle.dot.hit").count() == len(hits)
    await page.mouse.up()
    await page.wait_for_function(IDLE)
    assert await page.evaluate("() => FV.app.play.pending") == [[0, dst]]
    assert await page.evaluate("() => FV.app.play.hits") == [True]
    after = await drawn_tavli(page, seat)
    assert after["bar"] == [before["bar"][0] - 1, before["bar"][1] + 1]  # in from the bar; the hit one goes out
    assert before["points"][dst - 1] == -1 and after["points"][dst - 1] == 1
    assert ["0", str(dst), True] in after["raw"]["arrows"]
    while not await page.evaluate("() => FV.app.play.complete"):  # the rest of the play by taps
        src = (await page.evaluate("() => FV.app.play.sources()"))[0]
        await page.click(f'#board [data-point="{src}"]')
        target = (await page.evaluate("() => FV.app.play.targets(FV.app.play.selected)"))[0]
        await page.click(f'#board [data-point="{target}"]')
        await page.wait_for_function(IDLE)
    text = await page.evaluate("() => FV.app.play.text")
    assert text.startswith(f"bar/{dst}*")
    assert text in {format_play(p) for p in game.legal_plays()}  # the engine's own text of a legal play
    assert await page.is_enabled("#confirm")
    await page.close()

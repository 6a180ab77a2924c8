"""Watching a game in the browser: the page draws the engine's position, and a move made in the Telegram
chat appears on it within a second, without a reload."""

from __future__ import annotations

import asyncio
import random
import time

from tests.fakes.telegram import FakeTelegram
from tests.telegram.harness import Chat, CoreSpy, actor_ref, game_view, group_place
from tests.telegram.scenes import a_legal_play, group_game

from .harness import ARTIFACTS, Chromium, Site, drawn_board, in_viewer_numbering, web_site


async def test_the_page_shows_the_game_and_follows_a_chat_move_live(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
):
    alice, bob, room, _board = await group_game(fake, chat, core)
    view = await game_view(core, actor_ref(alice), group_place(room))
    page = await browser.new_page(viewport={"width": 800, "height": 900})
    await page.goto(site.page_url(view.game_id))
    await page.wait_for_function(f"() => window.FV && FV.app.state && FV.app.state.version === {view.version}")
    assert await drawn_board(page, 0) == in_viewer_numbering(view.position_id, 0)
    status = await page.inner_text("#status")
    assert view.players[view.turn].name in status and "Alice" in await page.inner_text("#seat-bottom")
    await page.evaluate("() => { window.__same_page = true; }")
    await page.wait_for_selector("#conn.live")

    users = {"101": alice, "102": bob}
    rng = random.Random(3)
    delays = []
    for n in range(1, 6):  # five moves typed in the chat, each on the page within a second
        now = await game_view(core, actor_ref(alice), group_place(room))
        play = a_legal_play(now, rng)
        started = time.monotonic()
        await fake.send_text(users[now.players[now.turn].user_id], room, play)
        await page.wait_for_function(
            f"() => FV.app.state.version === {now.version + 1}"
            f" && document.querySelectorAll('#movelist li button').length >= {n}", timeout=1000)  # (+ forced passes)
        delays.append(time.monotonic() - started)
        await chat.idle()
        after = await game_view(core, actor_ref(alice), group_place(room))
        assert after.version == now.version + 1
        assert await drawn_board(page, 0) == in_viewer_numbering(after.position_id, 0)
        entries = await page.locator("#movelist li").all_inner_texts()
        mine = entries[-2] if entries[-1].split()[-1] == "pass" and len(entries) > 1 else entries[-1]  # forced pass
        assert play.split()[0].split("/")[0] in mine, entries[-2:]
    assert await page.evaluate("() => window.__same_page === true")  # no reload
    assert max(delays) < 1.0
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "spectator.png"
    await page.screenshot(path=str(shot), full_page=True)
    print(f"screenshot: {shot}; chat move -> page: median {sorted(delays)[2] * 1000:.0f} ms,"
          f" max {max(delays) * 1000:.0f} ms")


async def test_the_page_reconnects_by_itself_and_catches_up(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
):
    alice, bob, room, _board = await group_game(fake, chat, core)
    users = {"101": alice, "102": bob}
    view = await game_view(core, actor_ref(alice), group_place(room))
    page = await browser.new_page()
    await page.goto(site.page_url(view.game_id))
    await page.wait_for_selector("#conn.live")
    await page.evaluate("() => { window.__same_page = true; }")
    await site.stop()  # the server goes away (a deploy, a dropped connection) ...
    await page.wait_for_selector("#conn.lost")
    rng = random.Random(11)
    for _ in range(2):  # ... while the game goes on in the chat
        now = await game_view(core, actor_ref(alice), group_place(room))
        await chat.say(users[now.players[now.turn].user_id], room, a_legal_play(now, rng))
    after = await game_view(core, actor_ref(alice), group_place(room))
    assert after.version == view.version + 2
    await site.start()  # back on the same address: the page reconnects and catches up by itself
    await page.wait_for_function(f"() => FV.app.state.version === {after.version}", timeout=10_000)
    await page.wait_for_selector("#conn.live")
    assert await drawn_board(page, 0) == in_viewer_numbering(after.position_id, 0)
    assert await page.evaluate("() => window.__same_page === true")
    # the two moves played, and any turn the dice left without a move (recorded as a pass in the same commit)
    turns = [await b.inner_text() for b in await page.locator("#movelist li button .text").all()]
    assert len([t for t in turns if t != "pass"]) == 2, turns


async def test_an_idle_page_waits_for_its_user_then_catches_up(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, browser: Chromium
):
    alice, bob, room, _board = await group_game(fake, chat, core)
    users = {"101": alice, "102": bob}
    view = await game_view(core, actor_ref(alice), group_place(room))
    async with web_site(core.real, fake.token, sse_idle_seconds=1.0, heartbeat_seconds=0.5) as quiet:
        page = await browser.new_page()
        await page.goto(quiet.page_url(view.game_id))
        await page.wait_for_selector("#conn.idle", timeout=10_000)  # the server closed the quiet stream
        assert "Paused" in await page.inner_text("#conn")
        await chat.say(users[view.players[view.turn].user_id], room, a_legal_play(view, random.Random(2)))
        await asyncio.sleep(0.5)
        assert await page.evaluate("() => FV.app.state.version") == view.version  # not reconnected by itself
        await page.mouse.click(5, 5)  # the user is back
        await page.wait_for_function(f"() => FV.app.state.version === {view.version + 1}", timeout=3000)
        await page.wait_for_selector("#conn.live")

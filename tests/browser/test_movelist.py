"""The move list in Chromium: a long game's list shows its latest move when the page opens and after every
update, unless the reader has scrolled up to earlier moves (then his scroll stays until he is back at the end
or goes back to the live board from a replay)."""

from __future__ import annotations

import random

from playwright.async_api import Page

from fevga import Game
from tests.fakes.telegram import FakeTelegram
from tests.telegram.harness import Chat, CoreSpy

from .harness import Chromium, Site
from .tavli import store_game, tavli_game
from .test_play import open_as
from .test_tavli import players

# The list's scroll: where it is, how far it can go, and whether the last entry is in view.
SCROLL = """() => { const l = document.getElementById('movelist');
  const last = l.lastElementChild.getBoundingClientRect(), box = l.getBoundingClientRect();
  return {top: l.scrollTop, height: l.clientHeight, content: l.scrollHeight, items: l.children.length,
          lastShown: last.bottom <= box.bottom + 1 && last.top >= box.top - 1}; }"""
# Two animation frames: the browser has delivered the scroll events of a scroll just made.
FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


async def play_on(page: Page, core: CoreSpy, gid: str, game: Game, rng: random.Random) -> int:
    """Two more turns of ``game`` stored as a new version, which the page receives live; that version."""
    for _ in range(2):
        game.play(rng.choice(game.legal_plays()))
    version = await store_game(core.real, gid, game)
    await page.wait_for_function(f"() => FV.app.state.version === {version}"
                                 f" && document.querySelectorAll('#movelist li').length === {len(game.history)}")
    await page.evaluate(FRAMES)
    return version


async def test_the_move_list_follows_the_latest_move_unless_scrolled_up(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
) -> None:
    game = tavli_game("plakoto", lambda g: len(g.history) >= 16)
    gid, version, _users = await players(fake, chat, core, game)
    page = await open_as(browser, site.page_url(gid), version, viewport={"width": 390, "height": 800})
    await page.wait_for_selector("#conn.live")
    await page.evaluate(FRAMES)
    seen = await page.evaluate(SCROLL)
    assert seen["items"] == len(game.history) and seen["content"] > seen["height"] + 50, seen  # it overflows
    assert seen["lastShown"] and seen["top"] > 0, seen  # opened at the latest move

    rng = random.Random(5)
    await play_on(page, core, gid, game, rng)
    seen = await page.evaluate(SCROLL)
    assert seen["lastShown"], seen  # an update keeps the latest move in view

    await page.evaluate("() => { document.getElementById('movelist').scrollTop = 0; }")  # reading earlier moves
    await page.evaluate(FRAMES)
    await play_on(page, core, gid, game, rng)
    seen = await page.evaluate(SCROLL)
    assert seen["top"] == 0 and not seen["lastShown"], seen  # left where he scrolled

    await page.evaluate("() => { const l = document.getElementById('movelist'); l.scrollTop = l.scrollHeight; }")
    await page.evaluate(FRAMES)  # back at the end: the list follows again
    await play_on(page, core, gid, game, rng)
    seen = await page.evaluate(SCROLL)
    assert seen["lastShown"], seen

    await page.evaluate("() => { document.getElementById('movelist').scrollTop = 0; }")
    await page.evaluate(FRAMES)
    await page.click("#movelist li:nth-child(2) button")  # replaying an early move, then back to now
    await page.click("#tolive")
    await page.evaluate(FRAMES)
    seen = await page.evaluate(SCROLL)
    assert seen["lastShown"], seen
    await page.close()

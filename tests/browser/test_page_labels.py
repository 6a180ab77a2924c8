"""What the page writes around the board, in Chromium: the two borne-off counts apart and next to their own
trays (desktop and phone), the heading and tab title naming the game shown (in the viewer's language), a
Portes player's checkers on the bar in his line, the opponent's plays in the move list also in the viewer's
numbering (the terminal's "here" form), and a page with no game showing its message alone."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page

from bot.i18n import translate
from fevga import Game
from fevga.play import format_steps
from tests.fakes.telegram import FakeTelegram
from tests.telegram.harness import Chat, CoreSpy, actor_ref, game_view, group_place
from tests.telegram.scenes import group_game

from .harness import ARTIFACTS, Chromium, Site
from .tavli import store_game, tavli_game
from .test_play import open_as
from .test_tavli import both_bars, open_seat, players

# The texts drawn over the tray column (the borne-off counts) and the two trays' boxes, in page pixels.
TRAY_TEXTS = """() => {
  const svg = document.getElementById('board');
  const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const trays = [...svg.querySelectorAll('g.tray rect.traybg')].map(box);  // the viewer's, then the opponent's
  const left = trays[0].x, right = trays[0].x + trays[0].w;
  const texts = [...svg.querySelectorAll('text')].map((t) => ({text: t.textContent, ...box(t)}))
    .filter((t) => t.x + t.w / 2 >= left && t.x + t.w / 2 <= right);
  return {trays, texts};
}"""


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    """Two boxes that do not overlap."""
    side_by_side = a["x"] + a["w"] <= b["x"] or b["x"] + b["w"] <= a["x"]
    return side_by_side or a["y"] + a["h"] <= b["y"] or b["y"] + b["h"] <= a["y"]


def both_bore_off(game: Game) -> bool:
    pos = game.view(0)
    return pos.me_off > 0 and pos.opp_off > 0


def other_point(p: int) -> int:
    """A Portes point in the other seat's numbering (the bar 0 and off 25 stay)."""
    return p if p in (0, 25) else 25 - p


async def spectator(browser: Chromium, site: Site, gid: str, version: int, **kw: Any) -> Page:
    return await open_as(browser, site.page_url(gid), version, **kw)


async def test_the_borne_off_counts_stand_apart_next_to_their_trays(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
) -> None:
    game = tavli_game("portes", both_bore_off)
    gid, version, _users = await players(fake, chat, core, game)
    pos = game.view(0)
    for size in ({"width": 1280, "height": 900}, {"width": 390, "height": 844}):
        page = await spectator(browser, site, gid, version, viewport=size)
        seen = await page.evaluate(TRAY_TEXTS)
        mine, theirs = seen["trays"]
        counts = seen["texts"]
        assert sorted(t["text"] for t in counts) == sorted([str(pos.me_off), str(pos.opp_off)]), counts
        assert apart(counts[0], counts[1]), counts  # not drawn over each other
        for t in counts:
            assert apart(t, mine) and apart(t, theirs), (t, seen["trays"])  # nor over the checkers
        below = [t for t in counts if t["y"] >= mine["y"] + mine["h"]]  # the viewer's, under his tray
        above = [t for t in counts if t["y"] + t["h"] <= theirs["y"]]  # the opponent's, over his
        assert [t["text"] for t in below] == [str(pos.me_off)] and [t["text"] for t in above] == [str(pos.opp_off)]
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / f"borne-off-{size['width']}.png"))
        await page.close()


async def test_the_title_names_the_game_and_a_portes_line_shows_the_bar(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
) -> None:
    game = tavli_game("portes", both_bars)
    alice, bob, room, _board = await group_game(fake, chat, core)
    view = await game_view(core, actor_ref(alice), group_place(room))
    version = await store_game(core.real, view.game_id, game)
    gid, users = view.game_id, [{"101": alice, "102": bob}[view.players[seat].user_id] for seat in (0, 1)]
    pos = game.view(0)
    page = await spectator(browser, site, gid, version)
    assert await page.title() == "Portes" and await page.inner_text("#title") == "Portes"
    # seat 0's line at the bottom (a spectator sees seat 0's side), seat 1's at the top
    assert await page.inner_text("#seat-bottom .bar") == translate("webpage_on_bar", "en", count=pos.me_bar)
    assert await page.inner_text("#seat-top .bar") == translate("webpage_on_bar", "en", count=pos.opp_bar)
    await page.close()
    await chat.say(users[1], room, "/lang el")
    page = await open_seat(browser, site, gid, version, users[1])
    assert await page.title() == "Πόρτες" and await page.inner_text("#title") == "Πόρτες"
    assert await page.inner_text("#seat-bottom .bar") == f"{pos.opp_bar} στην μπάρα"  # his own line, in Greek
    await page.close()


async def test_the_opponents_plays_are_also_written_in_the_viewers_numbering(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
) -> None:
    game = tavli_game("portes", both_bars)
    gid, version, users = await players(fake, chat, core, game)
    for viewer in (None, 1):
        page = await (spectator(browser, site, gid, version) if viewer is None
                      else open_seat(browser, site, gid, version, users[viewer]))
        side = viewer or 0
        entries = await page.eval_on_selector_all(
            "#movelist .mv", "els => els.map(e => [e.querySelector('.text').textContent,"
                             " (e.querySelector('.here') || {}).textContent || null])")
        assert len(entries) == len(game.history)
        for (text, here), rec in zip(entries, game.history, strict=True):
            assert text == (format_steps(rec.steps, rec.hits) if rec.steps else "pass")  # the mover's own numbering
            if rec.player == side or not rec.steps:
                assert here is None, (text, here)
            else:  # the same steps on the viewer's board, hits kept: "12/18* 18/21 (here 13/7* 7/4)"
                steps = tuple((other_point(a), other_point(b)) for a, b in rec.steps)
                assert here == f"(here {format_steps(steps, rec.hits)})", (text, here)
        await page.close()


async def test_a_page_with_no_game_shows_its_message_alone(site: Site, browser: Chromium) -> None:
    """/app outside Telegram (no game named): the message in the browser's language, no board, no replay
    controls, no request for a game; a signed link to a game no longer stored: its message alone too."""
    page = await browser.new_page(locale="el-GR")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    await page.goto(f"{site.base}/app")
    await page.wait_for_function("() => document.getElementById('status').className === 'bad'")
    assert await page.inner_text("#status") == translate("web_no_token", "el")
    for hidden in ("#board", "#replay", "#moves", "#prev", "#next", ".seat"):
        assert not await page.is_visible(hidden), hidden
    assert not [u for u in asked if "/api/g/" in u], asked
    await page.close()

    page = await browser.new_page()
    await page.goto(site.page_url("ZZZZZZZZ"))  # a good signature for a game that is not stored
    await page.wait_for_function("() => document.getElementById('status').className === 'bad'")
    assert await page.inner_text("#status") == translate("web_no_game", "en")
    assert not await page.is_visible("#replay") and not await page.is_visible("#board")
    await page.close()

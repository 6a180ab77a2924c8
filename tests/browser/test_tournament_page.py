"""The tournament page in Debian's Chromium: the standings table and the rounds render, and a match's board
link opens that game's board page."""

from __future__ import annotations

from bot.service.models import Place, PlayerRef

from .harness import Chromium, Site

ROOM = Place("telegram", "-4001", "-4001")


async def test_tournament_page_links_to_the_boards(site: Site, browser: Chromium) -> None:
    field = [PlayerRef("telegram", str(401 + n), name) for n, name in enumerate(["Anna", "Βασίλης", "张伟", "Dora"])]
    events = site.core.service.tournaments
    assert (await events.create(field[0], ROOM, rounds=2, is_admin=True)).ok
    for p in field:
        assert (await events.join(p, ROOM)).ok
    assert (await events.start(field[0], ROOM, is_admin=True)).ok
    _v, t = await events.current(ROOM)
    assert t is not None
    page = await browser.new_page()
    await page.goto(f"{site.base}/t/{t.id}?lang=el")
    assert await page.locator("#standings tr").count() == 5  # the heads and four players
    assert "张伟" in await page.inner_text("#standings")
    assert await page.locator("h2").first.inner_text() == "Γύρος 1"
    links = page.locator("li a")
    assert await links.count() == 2
    await links.first.click()
    await page.wait_for_url("**/g/**")
    assert "/g/" in page.url
    await page.close()

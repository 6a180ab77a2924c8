"""The terminal chat's board page in a real browser on the same machine: it plays for the terminal's player
(a play tapped and confirmed on the page is made), and the same page reached by another host name (a DNS
name mapped to 127.0.0.1) is read-only and says so. In a hot-seat game it follows the player to move."""

from __future__ import annotations

import io
import re
from pathlib import Path

from playwright.async_api import Page

from bot.config import Settings
from bot.console import ConsoleChat
from bot.i18n import translate
from bot.web.server import start_local
from fevga.play import format_play
from tests.telegram.harness import CoreSpy

from .harness import PLAIN_HOST, Chromium, free_port
from .tavli import drawn_tavli, position_view
from .test_play import open_as, play_by_hand


async def test_the_terminal_page_plays_for_the_terminal_player(core: CoreSpy, browser: Chromium,
                                                               tmp_path: Path) -> None:
    settings = Settings(_env_file=None, web_port=free_port())  # type: ignore[call-arg]
    out = io.StringIO()
    chat = ConsoleChat(core.real, board_dir=tmp_path, out=out)
    local = await start_local(core.real, settings, (chat.you, chat.friend))
    assert local is not None
    runner, chat.links = local
    try:
        await chat.start()  # a game against the AI, the terminal's player to move
        [url] = re.findall(r"\[Open board: (http://127\.0\.0\.1:\d+/g/[^/\]]+)\]", out.getvalue())
        view = (await core.real.service.board(chat.you, chat.place)).view
        assert view is not None and view.players[view.turn].same(chat.you)

        elsewhere = await open_as(browser, url.replace("127.0.0.1", PLAIN_HOST), view.version)
        assert not await elsewhere.is_visible("#playbar")  # not this machine's page by its name: read-only
        assert (await elsewhere.inner_text("#mode")).strip() == translate("webpage_read_only", "en")
        await elsewhere.close()

        page = await open_as(browser, url, view.version, viewport={"width": 390, "height": 800})
        assert await page.evaluate("() => FV.app.authed && FV.app.state.viewer.to_move") is True
        assert await page.is_visible("#playbar")
        assert (await page.inner_text("#mode")).strip() != translate("webpage_read_only", "en")
        assert await page.inner_text("#seat-bottom .name") == chat.you.name == "You"  # not "You (you)"
        text = await play_by_hand(page, drag_first=False)
        await page.click("#confirm")
        await page.wait_for_function(f"() => FV.app.state.version > {view.version}")
        after = (await core.real.service.board(chat.you, chat.place)).view
        assert after is not None and after.version > view.version
        moves = await page.evaluate("() => FV.app.state.moves.map(m => m.text)")
        assert text in moves, (text, moves)
        await page.close()
    finally:
        await runner.cleanup()


async def wait_for_seat(page: Page, core: CoreSpy, chat: ConsoleChat) -> int:
    """Wait until the page shows the stored game from the side of the player to move, as his to play (no
    reload); that seat."""
    view = (await core.real.service.board(chat.you, chat.place)).view
    assert view is not None and view.turn is not None
    await page.wait_for_function(f"() => FV.app.state.version === {view.version} && FV.app.seat === {view.turn}"
                                 " && FV.app.state.viewer.to_move && FV.app.play.active()", timeout=5000)
    session = (await core.real.service.sessions.load(view.game_id, take=False)).session
    assert session is not None
    assert await drawn_tavli(page, view.turn) | {"raw": None} == position_view(session.game.view(view.turn)) | {
        "raw": None}  # the board turned to his side
    assert (await page.inner_text("#mode")).strip() == ""  # not "Wait for your turn"
    return view.turn


async def test_the_hot_seat_page_follows_the_player_to_move(core: CoreSpy, browser: Chromium,
                                                            tmp_path: Path) -> None:
    """Hot-seat (both players at the terminal): after a play made on the page, and after one typed in the
    terminal, the page shows the game from the side of the player now to move, for him to play."""
    settings = Settings(_env_file=None, web_port=free_port())  # type: ignore[call-arg]
    out = io.StringIO()
    chat = ConsoleChat(core.real, board_dir=tmp_path, out=out)
    local = await start_local(core.real, settings, (chat.you, chat.friend), on_play=chat.from_page)
    assert local is not None
    runner, chat.links = local
    try:
        await chat.command("challenge friend plakoto")
        [url] = re.findall(r"\[Open board: (http://127\.0\.0\.1:\d+/g/[^/\]]+)\]", out.getvalue())
        view = (await core.real.service.board(chat.you, chat.place)).view
        assert view is not None
        page = await open_as(browser, url, view.version, viewport={"width": 390, "height": 800})
        first = await wait_for_seat(page, core, chat)
        await play_by_hand(page, drag_first=False)
        await page.click("#confirm")
        second = await wait_for_seat(page, core, chat)  # from the page's own play
        assert second == 1 - first
        game = (await core.real.service.sessions.load(view.game_id, take=False)).session
        assert game is not None
        await chat.command(format_play(game.game.legal_plays()[0]))  # the friend plays at the keyboard
        assert await wait_for_seat(page, core, chat) == first  # from the live stream
        await page.close()
    finally:
        await runner.cleanup()

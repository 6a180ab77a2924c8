"""What a refused request is answered: the error pages in the language the browser asks for (``?lang=``,
else ``Accept-Language``: the tournament page's rule), the page's strings for a page with no game, and an
address too long to be a board link answered by a short plain sentence and logged in one line without it."""

from __future__ import annotations

import logging
from html import escape

import aiohttp
import pytest

from bot.chat.core import BotCore
from bot.i18n import translate
from bot.web.app import WebConfig
from bot.web.server import MAX_LINE, start_web

from .kit import Site
from .test_terminal import free_port

GREEK = {"Accept-Language": "el-GR,el;q=0.9,en;q=0.5"}


@pytest.mark.parametrize(("path", "headers", "code"), [
    ("/g/bad", GREEK, "bad_link"), ("/g/bad?lang=el", {}, "bad_link"),
    ("/t/ABCDEFGH", GREEK, "no_tournament"), ("/t/ABCDEFGH?lang=el", {"Accept-Language": "en"}, "no_tournament"),
])
async def test_error_pages_speak_the_browsers_language(site: Site, path: str, headers: dict[str, str],
                                                       code: str) -> None:
    resp = await site.client.get(path, headers=headers)
    html = await resp.text()
    assert resp.status == 404 and resp.headers["Content-Type"].startswith("text/html")
    assert escape(translate(f"web_{code}", "el")) in html and "lang='el'" in html, html
    english = await (await site.client.get(path.split("?")[0])).text()  # no preference: the bot's default
    assert escape(translate(f"web_{code}", "en")) in english


async def test_api_errors_without_a_game_follow_the_same_rule(site: Site) -> None:
    body = await (await site.client.get("/api/g/bad/state", headers=GREEK)).json()
    assert body == {"ok": False, "code": "bad_link", "error": translate("web_bad_link", "el")}


async def test_the_page_strings_alone_in_the_browsers_language(site: Site) -> None:
    greek = await (await site.client.get("/api/strings", headers=GREEK)).json()
    assert greek["lang"] == "el" and greek["strings"]["web_no_token"] == translate("web_no_token", "el")
    english = await (await site.client.get("/api/strings?lang=en", headers=GREEK)).json()
    assert english["lang"] == "en" and english["strings"]["webpage_undo"] == "Undo"


@pytest.mark.parametrize("extra", [9000, MAX_LINE + 10])
async def test_a_too_long_address_is_refused_plainly_and_logged_in_one_line(
        core: BotCore, config: WebConfig, caplog: pytest.LogCaptureFixture, extra: int) -> None:
    """Over 4 KB (the QA's 9 KB link): 414 with the catalogue's sentence; past aiohttp's request line limit:
    its 400. Either way one log line that quotes neither the address nor the link's token, no traceback."""
    port = free_port()
    runner = await start_web(core, config, port, "127.0.0.1")
    token = config.links.token("GotKHqeG")
    url = f"http://127.0.0.1:{port}/g/{token}" + "x" * extra
    caplog.set_level(logging.DEBUG)
    try:
        async with aiohttp.ClientSession() as http, http.get(url) as resp:
            text = await resp.text()
            status = resp.status
    finally:
        await runner.cleanup()
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(records) == 1, [r.getMessage() for r in records]
    assert token not in records[0].getMessage() and "xxxx" not in records[0].getMessage()
    assert records[0].exc_info is None and records[0].levelno == logging.WARNING
    if extra < MAX_LINE:
        assert status == 414 and translate("web_too_long", "en") in text and token not in text

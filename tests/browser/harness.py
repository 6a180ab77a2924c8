"""Test plumbing for the game page in a real browser: Debian's chromium driven by Playwright (never a
downloaded browser), the real web server (bot/web) on a free loopback port, signed links and Mini App
initData signed with the fake Telegram's bot token, and readers of what the page shows."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web
from playwright.async_api import Browser, Page

from bot.web import links
from bot.web.app import WebConfig
from bot.web.initdata import secret_key, sign_init_data
from bot.web.server import start_web
from fevga import Position
from fevga.position import opponent_point

CHROMIUM = "/usr/bin/chromium"
# A name that is not a secure context (plain http, not localhost), mapped to the loopback address: the page
# must then check the dice with its own SHA-256/HMAC instead of WebCrypto.
PLAIN_HOST = "fevga.test"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    f"--host-resolver-rules=MAP {PLAIN_HOST} 127.0.0.1",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
LINK_SECRET = "browser-tests-link-secret"


class Chromium:
    """The launched browser; every page it opens records uncaught script errors (none may happen)."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.errors: list[str] = []

    async def new_page(self, **options: Any) -> Page:
        page = await self.browser.new_page(**options)
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: {exc}"))
        return page


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Site:
    """The running web frontend: its base URL and link key; it can be stopped and started again on the
    same port (a restart the page must survive)."""

    core: Any
    config: WebConfig
    port: int
    runner: web.AppRunner | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def key(self) -> bytes:
        return self.config.links.key

    def page_url(self, game_id: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}/g/{links.sign(self.key, game_id)}"

    async def start(self) -> None:
        self.runner = await start_web(self.core, self.config, self.port, host="127.0.0.1")

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None


@contextlib.asynccontextmanager
async def web_site(core: Any, bot_token: str, **options: Any) -> AsyncIterator[Site]:
    """The product's web server for ``core``, trusting Mini App data signed with ``bot_token`` (``options``:
    more WebConfig fields)."""
    port = free_port()
    key = links.derive_key(LINK_SECRET)
    config = WebConfig(links=links.WebLinks(key, f"http://127.0.0.1:{port}"), telegram_token=bot_token,
                       **{"heartbeat_seconds": 2.0, **options})
    site = Site(core, config, port)
    await site.start()
    try:
        yield site
    finally:
        await site.stop()


def init_data(bot_token: str, user_id: int, first_name: str, *, age: float = 0.0, lang: str = "en",
              start_param: str | None = None) -> str:
    """Mini App initData as Telegram signs it for this user (``age`` seconds old)."""
    user = f'{{"id":{user_id},"first_name":"{first_name}","language_code":"{lang}"}}'
    fields = {"auth_date": str(int(time.time() - age)), "query_id": "AAF-test", "user": user}
    if start_param:
        fields["start_param"] = start_param
    return sign_init_data(fields, secret_key(bot_token))


def in_viewer_numbering(position_id: str, seat: int) -> tuple[list[int], tuple[int, int]]:
    """The engine's position (``position_id`` from seat 0's view) as the viewer at ``seat`` sees it:
    signed counts per his point 1-24 (>0 his) and (his off, opponent's off)."""
    pos = Position.from_id(position_id)
    board = list(pos.board)
    if seat == 1:
        board = [-board[opponent_point(p) - 1] for p in range(1, 25)]
        return board, (pos.opp_off, pos.me_off)
    return board, (pos.me_off, pos.opp_off)


# Reads the drawn SVG: per point the checkers drawn (circles), or the number written on a tall stack, and
# their colour class; the number of bars in each tray.
READ_BOARD = """() => {
  const svg = document.getElementById('board');
  const out = {points: [], trays: []};
  for (let p = 1; p <= 24; p++) {
    const g = svg.querySelector(`[data-point="${p}"]`);
    const cks = g.querySelectorAll('circle.ck');
    const text = g.querySelector('text.count');
    const n = text ? parseInt(text.textContent, 10) : cks.length;
    const colour = cks.length ? (cks[0].classList.contains('ck0') ? 0 : 1) : null;
    out.points.push([n, colour]);
  }
  for (const t of svg.querySelectorAll('g.tray')) out.trays.push(t.querySelectorAll('rect.ck').length);
  return out;
}"""


async def drawn_board(page: Any, viewer_colour: int) -> tuple[list[int], tuple[int, int]]:
    """The page's board as signed counts in the viewer's numbering (>0: the viewer's colour) and trays."""
    seen = await page.evaluate(READ_BOARD)
    counts = [n if colour == viewer_colour else -n for n, colour in seen["points"]]
    trays = seen["trays"]  # drawn order: the viewer's tray, then the opponent's
    return counts, (trays[0], trays[1])

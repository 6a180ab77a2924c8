"""In terminal mode the board page plays for the terminal's player, from this machine only: a play posted from
127.0.0.1 is made (the same move the chat would make), while the same request is refused (401, nothing
changed) when the bot does not run the terminal chat, when it comes from another address, or when it names
another host (a DNS name rebound to 127.0.0.1) or another site as its origin."""

from __future__ import annotations

import io
import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from yarl import URL

from bot.chat.core import BotCore
from bot.config import Settings
from bot.console import ConsoleChat
from bot.i18n import translate
from bot.web.app import WEB_APP, WebConfig
from bot.web.server import make_app, start_local
from tests.botkit import a_legal_play_text

from .kit import stored_version
from .test_terminal import free_port


class Terminal:
    """The terminal chat with its page on a loopback port, as ``run_console`` starts them."""

    def __init__(self, core: BotCore, chat: ConsoleChat, runner: web.AppRunner, url: str, token: str,
                 out: io.StringIO) -> None:
        self.core, self.chat, self.runner, self.url, self.token, self.out = core, chat, runner, url, token, out

    @property
    def gid(self) -> str:
        return self.token.split(".")[0]

    def api(self, what: str) -> str:
        return self.url.replace("/g/", "/api/g/") + f"/{what}"

    async def a_play(self) -> tuple[int, str]:
        """(version, a legal play of the terminal's player, who is to move)."""
        view = (await self.core.service.board(self.chat.you, self.chat.place)).view
        assert view is not None and view.players[view.turn].same(self.chat.you)
        return await stored_version(self.core, self.gid), a_legal_play_text(view, random.Random(5))


@pytest.fixture
async def terminal(core: BotCore, tmp_path: Path) -> AsyncIterator[Terminal]:
    settings = Settings(_env_file=None, web_port=free_port())  # type: ignore[call-arg]
    out = io.StringIO()
    chat = ConsoleChat(core, board_dir=tmp_path, out=out)
    local = await start_local(core, settings, (chat.you, chat.friend), on_play=chat.from_page)
    assert local is not None
    runner, chat.links = local
    try:
        await chat.start()  # a game against the AI: the AI moves at once when it starts, so "you" are to move
        [(url, token)] = re.findall(r"\[Open board: (http://127\.0\.0\.1:\d+/g/([^/\]]+))\]", out.getvalue())
        yield Terminal(core, chat, runner, url, token, out)
    finally:
        await runner.cleanup()


async def test_the_page_plays_for_the_terminal_player_from_loopback(terminal: Terminal) -> None:
    async with aiohttp.ClientSession() as http:
        state = await (await http.get(terminal.api("state"))).json()
        assert state["local"] is True and state["viewer"]["to_move"] is True
        assert state["seats"][state["viewer"]["seat"]]["name"] == "You"
        version, play = await terminal.a_play()
        steps = await http.post(terminal.api("steps"), json={"version": version, "pending": []})
        assert steps.status == 200 and (await steps.json())["options"]  # the page can build the play
        answer = await http.post(terminal.api("play"), json={"version": version, "text": play})
        body = await answer.json()
    assert answer.status == 200 and body["ok"] is True, body
    assert await stored_version(terminal.core, terminal.gid) > version  # the move was made (and the AI's reply)
    moves = body["state"]["moves"]
    assert any(m["text"] == play for m in moves), (play, moves)


async def test_a_play_on_the_page_is_printed_in_the_terminal(terminal: Terminal) -> None:
    """The terminal shows a play made on its page as it shows a typed one, without the player typing
    ``board``: where it came from, the play, the AI's reply and the board with whose turn it is."""
    printed = terminal.out.tell()
    version, play = await terminal.a_play()
    async with aiohttp.ClientSession() as http:
        answer = await http.post(terminal.api("play"), json={"version": version, "text": play})
        assert answer.status == 200, await answer.text()
    shown = terminal.out.getvalue()[printed:]
    assert shown.startswith(f"[{translate('web_console_from_page', 'en')}]\n"), shown
    assert "You rolled" in shown and f"played {play}." in shown, (play, shown)
    assert "AI (medium) rolled" in shown  # the AI's reply to it
    assert "┌" in shown and "You to play" in shown, shown  # the board, the terminal's player to move again


@pytest.mark.parametrize("headers", [{"Host": "fevga.example:80"}, {"Origin": "https://evil.example"}])
async def test_another_host_or_origin_is_refused_on_loopback(terminal: Terminal, headers: dict[str, str]) -> None:
    version, play = await terminal.a_play()
    async with aiohttp.ClientSession() as http:
        answer = await http.post(terminal.api("play"), json={"version": version, "text": play}, headers=headers)
        assert answer.status == 401 and (await answer.json())["code"] == "no_init_data"
        state = await (await http.get(terminal.api("state"), headers=headers)).json()
    assert "local" not in state and state["viewer"]["seat"] is None
    assert await stored_version(terminal.core, terminal.gid) == version  # nothing changed


def from_address(remote: str) -> Callable[..., Awaitable[web.StreamResponse]]:
    """A middleware that makes every request come from ``remote`` (as a peer elsewhere on the network)."""

    @web.middleware
    async def elsewhere(request: web.Request, handler: Callable[[web.Request], Awaitable[Any]]) -> Any:
        return await handler(request.clone(remote=remote))

    return elsewhere


@pytest.mark.parametrize("remote", ["192.0.2.7", "2001:db8::7"])
async def test_the_terminal_player_is_refused_from_another_address(terminal: Terminal, core: BotCore,
                                                                   remote: str) -> None:
    config: WebConfig = terminal.runner.app[WEB_APP].config
    app = make_app(core, config)  # the terminal's own config (its players and link key), seen from elsewhere
    app.middlewares.insert(0, from_address(remote))
    version, play = await terminal.a_play()
    async with TestClient(TestServer(app)) as client:
        answer = await client.post(URL(terminal.api("play")).path, json={"version": version, "text": play})
        assert answer.status == 401 and (await answer.json())["code"] == "no_init_data"
    assert await stored_version(core, terminal.gid) == version


async def test_without_the_terminal_chat_loopback_is_no_player(terminal: Terminal, core: BotCore,
                                                               tmp_path: Path) -> None:
    settings = Settings(_env_file=None, web_port=free_port())  # type: ignore[call-arg]
    plain = await start_local(core, settings)  # a page server that is not the terminal chat's
    assert plain is not None
    runner, links = plain
    version, play = await terminal.a_play()
    url = links.page(terminal.gid).replace("/g/", "/api/g/")
    try:
        async with aiohttp.ClientSession() as http:
            answer = await http.post(f"{url}/play", json={"version": version, "text": play})
            assert answer.status == 401 and (await answer.json())["code"] == "no_init_data"
            state = await (await http.get(f"{url}/state")).json()
    finally:
        await runner.cleanup()
    assert "local" not in state and state["viewer"]["seat"] is None
    assert await stored_version(core, terminal.gid) == version

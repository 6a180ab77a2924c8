"""The terminal chat starts the board page on a local port and prints each game's link, which serves that
game's state (read-only: terminal players are no Telegram users)."""

from __future__ import annotations

import io
import re
import socket
from pathlib import Path

import aiohttp

from bot.chat.core import BotCore
from bot.config import Settings
from bot.console import ConsoleChat
from bot.web.server import start_local


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_the_terminal_prints_a_working_board_link(core: BotCore, tmp_path: Path) -> None:
    settings = Settings(_env_file=None, web_port=free_port())  # type: ignore[call-arg]
    local = await start_local(core, settings)
    assert local is not None
    runner, links = local
    try:
        out = io.StringIO()
        chat = ConsoleChat(core, board_dir=tmp_path, out=out, links=links)
        await chat.start()
        found = re.findall(r"\[Open board: (http://127\.0\.0\.1:\d+/g/([^/\]]+))\]", out.getvalue())
        assert len(found) == 1
        url, token = found[0]
        async with aiohttp.ClientSession() as http:
            page = await http.get(url)
            assert page.status in (200, 503)  # 503 until the page's files are installed: still a clear answer
            state = await (await http.get(url.replace("/g/", "/api/g/") + "/state")).json()
        assert state["game"] == token.split(".")[0] and state["viewer"]["seat"] is None
        await chat.command("board")
        assert len(re.findall(r"\[Open board: ", out.getvalue())) == 1  # once per game
        await chat.command("lang el")  # a new game's link is in the player's language
        await chat.command("resign")
        await chat.command("resign yes")
        await chat.command("play ai easy")
        assert "[Άνοιγμα ταμπλό: http://127.0.0.1:" in out.getvalue(), out.getvalue()[-800:]
        again = await start_local(core, settings)  # the port is taken (a second terminal chat): the next one
        assert again is not None
        await again[0].cleanup()
        assert again[1].base_url != links.base_url and again[1].base_url.startswith("http://127.0.0.1:")
    finally:
        await runner.cleanup()

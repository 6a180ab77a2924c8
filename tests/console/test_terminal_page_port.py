"""A second terminal chat on the machine finds the board page's port taken (the first one serves it): it serves
its page on another port and prints that link; when no port at all can be opened it says so in one line."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

import bot.console.chat as console_chat
import bot.web.server as web_server
from bot.chat.core import BotCore
from bot.config import Settings
from bot.console import run_console
from bot.storage import LocalRedis

from .screen import read_until

pytestmark = pytest.mark.timeout(120)
REPO = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\[Open board: (http://127\.0\.0\.1:(\d+))/g/([^/\]]+)\]")


async def test_a_terminal_chat_whose_page_port_is_taken_serves_its_page_on_another(tmp_path: Path,
                                                                                  redis_server: LocalRedis) -> None:
    with socket.socket() as held:  # the first terminal chat's page, as far as the second one can tell
        held.bind(("127.0.0.1", 0))
        held.listen()
        taken = held.getsockname()[1]
        env = {**os.environ, "REDIS_URL": redis_server.url.replace("/0", "/5"), "FEVGA_DATA_DIR": str(tmp_path),
               "WEB_PORT": str(taken), "HEALTH_PORT": "", "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": "",
               "OPENBLAS_NUM_THREADS": "1", "FEVGA_AI_LEVEL": "easy", "PYTHONPATH": str(REPO)}
        chat = subprocess.Popen([sys.executable, "-m", "bot"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
        seen: list[str] = []
        try:
            read_until(chat, re.compile(r"\[Resign\]"), seen)  # the first board's buttons: after its link
            link = LINK.search("".join(seen))
            assert link is not None, "".join(seen)[-2000:]
            base, port, token = link.group(1), int(link.group(2)), link.group(3)
            assert port != taken
            async with aiohttp.ClientSession() as http:
                state = await (await http.get(f"{base}/api/g/{token}/state")).json()
            assert state["game"] == token.split(".")[0]
            assert chat.stdin is not None
            chat.stdin.write("quit\n")
            chat.stdin.flush()
            _out, err = chat.communicate(timeout=60)
        finally:
            if chat.poll() is None:
                chat.kill()
                chat.wait()
    assert chat.returncode == 0 and "Traceback" not in err
    assert "no port" not in "".join(seen)
    assert f"port {taken} is taken: serving it on port {port}" in (tmp_path / "fevga.log").read_text()


async def test_no_board_page_at_all_is_said_in_the_terminal_in_one_line(core: BotCore, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    async def no_port(*_args: object, **_kwargs: object) -> None:
        raise OSError(98, "Address already in use")

    monkeypatch.setattr(web_server, "start_web", no_port)  # every port refused
    monkeypatch.setattr(console_chat, "_read_stdin", lambda: None)  # end of input at the first prompt
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    await asyncio.wait_for(run_console(core, board_dir=tmp_path, ai_level="easy", settings=settings), 60)
    screen = capsys.readouterr().out
    said = [line for line in screen.splitlines() if "board page" in line]
    assert said == ["[No board page this time: no port on 127.0.0.1 could be opened (see the log). "
                    "The game is played here in the terminal.]"], screen[-1500:]
    assert "Open board" not in screen and "AI (easy)" in screen  # the game itself goes on here

"""Helpers for the web tests: Telegram users with signed initData, a game between two of them in a
group, and the site (core + config + HTTP client) with the calls the page makes."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from aiohttp.test_utils import TestClient

from bot.chat.core import BotCore
from bot.service import keys
from bot.service.models import Place, PlayerRef
from bot.web.app import WebConfig
from bot.web.initdata import secret_key, sign_init_data

BOT_TOKEN = "123456:web-test-token"
ALICE = PlayerRef("telegram", "101", "Alice")
BOB = PlayerRef("telegram", "102", "Bob")
CAROL = PlayerRef("telegram", "103", "Carol")
ROOM = Place("telegram", "-1001", "-1001")


def init_data(player: PlayerRef, *, age: float = 0, token: str = BOT_TOKEN, **extra: str) -> str:
    """initData as Telegram signs it for ``player`` (``age`` seconds old)."""
    fields = {"auth_date": str(int(time.time() - age)), "query_id": "AAE",
              "user": json.dumps({"id": int(player.user_id), "first_name": player.name, "language_code": "en"}),
              **extra}
    return sign_init_data(fields, secret_key(token))


async def start_game(core: BotCore, a: PlayerRef = ALICE, b: PlayerRef = BOB, place: Place = ROOM) -> str:
    """``a`` challenges ``b`` in ``place`` and ``b`` accepts; the game id."""
    await core.handle_text(a, place, f"challenge <@{b.user_id}>", mentions={f"<@{b.user_id}>": b})
    handled = await core.handle_text(b, place, "accept")
    gid = next(r.game_id for r in handled.replies if r.game_id)
    assert gid is not None
    return gid


async def stored_version(core: BotCore, gid: str) -> int:
    raw = (await core.store.read([("get", keys.game(gid))]))[0]
    return int(raw.split(b":", 1)[0])


@dataclass
class Site:
    """The running web frontend and the calls its page makes."""

    core: BotCore
    config: WebConfig
    client: TestClient

    def token(self, gid: str) -> str:
        return self.config.links.token(gid)

    async def state(self, gid: str, viewer: PlayerRef | None = None) -> dict[str, Any]:
        headers = {"X-Init-Data": init_data(viewer)} if viewer is not None else {}
        resp = await self.client.get(f"/api/g/{self.token(gid)}/state", headers=headers)
        assert resp.status == 200, await resp.text()
        data: dict[str, Any] = await resp.json()
        return data

    async def post(self, gid: str, what: str, body: Any, viewer: PlayerRef | None = None,
                   init: str | None = None) -> tuple[int, dict[str, Any]]:
        headers = {"X-Init-Data": init if init is not None else init_data(viewer)} if viewer or init else {}
        resp = await self.client.post(f"/api/g/{self.token(gid)}/{what}", json=body, headers=headers)
        return resp.status, await resp.json()

    async def mover(self, gid: str) -> tuple[dict[str, Any], PlayerRef, PlayerRef]:
        """(state, the player to move, the other one)."""
        st = await self.state(gid)
        players = (ALICE, BOB) if st["seats"][0]["name"] == "Alice" else (BOB, ALICE)
        return st, players[st["turn"]], players[1 - st["turn"]]

    async def a_play(self, gid: str, player: PlayerRef, version: int) -> str:
        """A legal play's text, built click by click with the steps API (first option each time)."""
        pending: list[list[Any]] = []
        while True:
            status, ans = await self.post(gid, "steps", {"version": version, "pending": pending}, player)
            assert status == 200, ans
            if ans["complete"]:
                return str(ans["text"])
            first = ans["options"][0]
            pending.append([first["from"], first["to"]])

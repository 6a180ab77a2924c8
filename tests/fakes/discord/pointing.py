"""Point discord.py's REST and gateway URLs elsewhere (discord.py has no setting for it)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable

import discord.gateway
import discord.http
import yarl


def point_discord_py_at(api_base: str, gateway_url: str | None = None) -> Callable[[], None]:
    """Make every discord.py client in this process use `api_base` (e.g. http://127.0.0.1:PORT/api/v10)
    and the websocket `gateway_url`; returns a function that restores the previous URLs.

    discord.py builds every REST URL, webhooks and interaction callbacks included, from the class
    attribute `discord.http.Route.BASE`. A plain Client/Bot never asks `GET /gateway/bot`: it connects
    to `DiscordWebSocket.DEFAULT_GATEWAY` (and falls back to it after an invalidated session), while
    AutoShardedClient takes the URL from `GET /gateway/bot`; so both attributes are set. Without
    gateway_url it is read (synchronously, once) from `GET {api_base}/gateway`.
    """
    api_base = api_base.rstrip("/")
    if gateway_url is None:
        with urllib.request.urlopen(f"{api_base}/gateway", timeout=5) as resp:
            gateway_url = str(json.load(resp)["url"])
    previous = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)

    def restore() -> None:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = previous

    return restore

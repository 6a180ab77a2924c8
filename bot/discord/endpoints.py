"""Where discord.py connects: the official API and gateway, or a local stand-in (DISCORD_API_BASE_URL,
DISCORD_GATEWAY_URL). discord.py has no setting for it; every REST URL is built from the class
attribute ``Route.BASE``, and a plain (unsharded) client connects to ``DiscordWebSocket.DEFAULT_GATEWAY``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import aiohttp
import discord.gateway
import discord.http
import yarl

from bot.config import DEFAULT_DISCORD_API_BASE_URL, Settings

log = logging.getLogger(__name__)
PROBE_TIMEOUT = aiohttp.ClientTimeout(total=10)


async def _get_json(url: str, token: str | None = None) -> dict[str, object]:
    headers = {"Authorization": f"Bot {token}"} if token else {}
    async with (
        aiohttp.ClientSession(timeout=PROBE_TIMEOUT) as session,
        session.get(url, headers=headers) as resp,
    ):
        resp.raise_for_status()
        data = await resp.json()
    return data if isinstance(data, dict) else {}


async def point_discord_py(settings: Settings) -> Callable[[], None]:
    """Aim discord.py at the configured API and gateway (only when they differ from the official ones).

    Without DISCORD_GATEWAY_URL a stand-in API is asked for its gateway (``GET /gateway``). Returns a
    function restoring the previous URLs (tests run several bots in one process).
    """
    previous = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)

    def restore() -> None:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = previous

    api = settings.discord_api_base_url.rstrip("/")
    gateway = settings.discord_gateway_url
    if api != DEFAULT_DISCORD_API_BASE_URL:
        discord.http.Route.BASE = api
        if gateway is None:
            gateway = str((await _get_json(f"{api}/gateway")).get("url") or "") or None
    if gateway is not None:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    if api != DEFAULT_DISCORD_API_BASE_URL or gateway is not None:
        log.info("discord.py points at %s (gateway %s)", api, gateway)
    return restore


async def recommended_shards(settings: Settings) -> int:
    """Discord's recommended shard count for this bot (``GET /gateway/bot``); 1 if it cannot be read."""
    token = settings.discord_token.get_secret_value() if settings.discord_token else None
    if not token:
        return 1
    try:
        data = await _get_json(f"{settings.discord_api_base_url.rstrip('/')}/gateway/bot", token)
        shards = data.get("shards", 1)
        return max(1, shards if isinstance(shards, int) else 1)
    except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
        log.warning("asking Discord for the shard count failed (%s); using 1", type(exc).__name__)
        return 1

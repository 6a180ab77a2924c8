"""The event stream for frontends: every game and challenge change is published by its commit; frontends
subscribe per channel, per game, or for a whole platform, and redraw from :meth:`Turns.view_of`."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from bot.storage.base import Store

from . import keys
from .models import Place


class Events:
    """platform_events / events / subscribe_events over the store's pub/sub."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def platform_events(self, platform: str) -> AsyncIterator[dict[str, Any]]:
        """Every game event of a platform (all its channels), from when iteration starts."""
        stream = await self.subscribe_events("", platform=platform)
        async for event in stream:
            yield event

    async def events(self, place_or_game: Place | str, platform: str | None = None) -> AsyncIterator[dict[str, Any]]:
        """Game events (game_id, version, kind, place) for a chat channel, one game, or (``platform=``)
        every channel of a platform; subscribes when iteration starts:
        ``async for event in service.events(place): ...``."""
        stream = await self.subscribe_events(place_or_game, platform)
        async for event in stream:
            yield event

    async def subscribe_events(
        self, place_or_game: Place | str, platform: str | None = None
    ) -> AsyncIterator[dict[str, Any]]:
        """Like :meth:`events`, but subscribed already when this returns (nothing published after is missed).

        ``subscribe_events("", platform="discord")`` follows every channel of a platform (one connection
        for a whole frontend instance).
        """
        pattern = platform is not None
        if platform is not None:
            channel = keys.place_events(platform, "*")
        elif isinstance(place_or_game, Place):
            channel = keys.place_events(place_or_game.platform, place_or_game.channel_id)
        else:
            channel = keys.game_events(place_or_game)
        messages = await self.store.subscribe(channel, pattern=pattern)

        async def decoded() -> AsyncIterator[dict[str, Any]]:
            async for raw in messages:
                try:
                    event = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(event, dict):
                    yield event

        return decoded()

"""The game-session service: one async, platform-neutral API over a Store, used by every frontend.

Every command takes ``(actor, place, ..., idem=None)`` and returns a :class:`~bot.service.models.Result`;
bad input and corrupt stored data give ``ok=False`` with a message key, never an exception. If the
store itself is unreachable the command answers ``store_unavailable``; an unexpected bug answers
``error``; both are logged with their traceback.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from redis.exceptions import RedisError

from .info import InfoMixin
from .models import Result
from .settings import SettingsMixin
from .timers import TimerMixin

log = logging.getLogger(__name__)

COMMANDS = (
    "challenge", "accept", "decline", "cancel", "play_ai", "rematch", "move", "step", "undo", "confirm",
    "resign", "resign_prompt", "abort", "claim", "board", "hint", "top", "stats", "export", "record",
    "settings", "set_setting", "view_of",
)  # fmt: skip


def _guard(method: Callable[..., Awaitable[Result]]) -> Callable[..., Awaitable[Result]]:
    @functools.wraps(method)
    async def guarded(*args: Any, **kwargs: Any) -> Result:
        try:
            return await method(*args, **kwargs)
        except (RedisError, OSError):
            log.exception("store unavailable in %s", method.__name__)
            return Result.error("store_unavailable")
        except Exception:  # a bug: log it, and still never send a traceback to a chat
            log.exception("unexpected error in %s", method.__name__)
            return Result.error("error")

    return guarded


class GameService(TimerMixin, InfoMixin, SettingsMixin):
    """Challenges, games, the AI, timers, leaderboards, records.

    ``GameService(store, clock=time.time, ai=None, challenge_ttl=600, turn_deadline=86400,
    quick_deadline=600, reminder_fractions=(0.5, 0.9), idem_ttl=3600, timer_lease=60,
    session_cache_size=2000)``; ``ai=None`` picks ``fevga.ai`` when present, else a random player.
    """


for _name in COMMANDS:
    setattr(GameService, _name, _guard(getattr(GameService, _name)))

__all__ = ["GameService"]

"""The guard of every public service command: a store failure or a bug becomes an error Result, never a raise."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import ParamSpec

from bot.storage.base import CommitOutcomeUnknown, DamagedKey, DamagedValue
from bot.storage.outage import STORE_DOWN, briefly

from .models import Result
from .once import OutcomeUnknown

log = logging.getLogger(__name__)
P = ParamSpec("P")


def command(method: Callable[P, Awaitable[Result]]) -> Callable[P, Awaitable[Result]]:
    """Guard a public command: a store failure or a bug becomes an error Result (logged), never a raise."""

    @functools.wraps(method)
    async def guarded(*args: P.args, **kwargs: P.kwargs) -> Result:
        try:
            return await method(*args, **kwargs)
        except (DamagedKey, DamagedValue) as exc:  # stored data of the wrong type or shape: not an outage
            log.error("damaged stored data in %s: %s", method.__name__, exc)
            return Result.error("store_damaged")
        except (OutcomeUnknown, CommitOutcomeUnknown):  # sent, and the answer never came: say so, never guess
            log.exception("commit outcome unknown in %s", method.__name__)
            return Result.error("outcome_unknown")
        except STORE_DOWN as exc:  # one line, no traceback: the command's own ERROR line is BotCore's
            log.warning("store unavailable in %s: %s", method.__name__, briefly(exc))
            log.debug("store unavailable in %s", method.__name__, exc_info=True)
            return Result.error("store_unavailable")
        except Exception:  # a bug: log it, and still never send a traceback to a chat
            log.exception("unexpected error in %s", method.__name__)
            return Result.error("error")

    return guarded

"""The service's tunable options and its clock type, given to each collaborator that needs them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Options:
    """Timings and limits (seconds unless named otherwise); the keyword options of ``GameService``."""

    challenge_ttl: float = 600
    turn_deadline: float = 86400
    quick_deadline: float = 600
    reminder_fractions: tuple[float, ...] = (0.5, 0.9)
    idem_ttl: int = 900  # at most 15 minutes (once.RECORD_TTL)
    # A claimed timer's work is one load and one version-checked commit (milliseconds; a double claim could
    # not act twice anyway), so a crashed claimer's timer is retried after a few seconds, not a minute.
    timer_lease: float = 5
    max_retries: int = 8
    session_cache_size: int = 2000
    ai_level: str = "medium"  # the level of a bare "play ai" (FEVGA_AI_LEVEL)

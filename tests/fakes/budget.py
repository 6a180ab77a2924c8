"""A stand-in platform's per-place budget: at most ``limit`` calls in any ``window`` seconds per place (a
sliding window, the strictest reading of "20 a minute" or "5 per 5 s"); a call beyond it is refused with the
seconds until the oldest call leaves the window (the 429's ``retry_after``). Off unless a test enables it."""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field


@dataclass
class Budget:
    """Counts calls per place; :meth:`take` records one or says how long to wait."""

    limit: int
    window: float
    whole_seconds: bool = False  # Telegram's retry_after is a whole number of seconds
    refused: int = 0  # calls answered 429
    calls: dict[str, deque[float]] = field(default_factory=dict)

    def take(self, place: str) -> float | None:
        """Record a call in ``place``: None when within the budget, else the retry_after to answer."""
        now = time.monotonic()
        seen = self.calls.setdefault(place, deque())
        while seen and seen[0] <= now - self.window:
            seen.popleft()
        if len(seen) < self.limit:
            seen.append(now)
            return None
        self.refused += 1
        after = seen[0] + self.window - now
        return float(max(1, math.ceil(after))) if self.whole_seconds else round(max(after, 0.001), 3)

"""Fault injection for the fake Discord REST API: the next N calls of a route answer an error status
(429 with ``retry_after``, 5xx), optionally after a delay, until cleared (the platform recovered)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from dataclasses import dataclass

from aiohttp import web


@dataclass
class Fault:
    """Answer ``status`` to the next ``remaining`` calls of ``method`` on paths matching ``path``."""

    method: str
    path: re.Pattern[str]
    remaining: int
    status: int
    retry_after: float | None = None
    delay: float = 0.0


class Faults:
    """The injected faults of one fake, matched in order of injection."""

    def __init__(self) -> None:
        self.active: list[Fault] = []
        self.hits = 0
        self._released = asyncio.Event()  # set when the fake stops: held calls answer at once

    def release(self) -> None:
        """End every delay now (the fake is stopping: a held call must not hold up its shut-down)."""
        self._released.set()

    def add(self, method: str, path: str, *, times: int = 1, status: int = 500, retry_after: float | None = None,
            delay: float = 0.0) -> None:
        """``path`` is a regular expression searched in the request path (e.g. ``/messages/\\d+$``)."""
        self.active.append(Fault(method.upper(), re.compile(path), times, status, retry_after, delay))

    def clear(self) -> None:
        self.active.clear()

    async def answer(self, method: str, path: str) -> web.Response | None:
        """The injected error for this call, or None to serve it normally."""
        for fault in self.active:
            if fault.method == method and fault.path.search(path):
                fault.remaining -= 1
                if fault.remaining <= 0:
                    self.active.remove(fault)
                self.hits += 1
                if fault.delay:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._released.wait(), fault.delay)
                return _response(fault)
        return None


def _response(fault: Fault) -> web.Response:
    headers = {"Content-Type": "application/json"}
    if fault.status == 429:
        after = fault.retry_after or 1.0
        body = {"message": "You are being rate limited.", "retry_after": after, "global": False}
        headers.update({"Retry-After": str(after), "X-RateLimit-Scope": "user", "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset-After": str(after), "X-RateLimit-Bucket": "fake-bucket",
                        "X-RateLimit-Limit": "5"})
    else:
        body = {"message": f"{fault.status}: injected", "code": 0}
    return web.Response(status=fault.status, body=json.dumps(body).encode(), headers=headers)

"""redis-py connections whose command writes are bounded by a timer rather than a task of their own.

redis-py wraps every command's write in ``asyncio.wait_for`` when a socket timeout is set: on Python 3.11 that is a
new task and an extra turn of the event loop for each command, a few percent of a move's loop time. The mixin here
bounds the same write with ``asyncio.timeout`` (a timer handle) and raises what redis-py raises.
"""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


class TimedWrites:
    """A redis-py connection whose command writes are bounded by ``socket_timeout`` with ``asyncio.timeout`` (a
    timer) instead of ``asyncio.wait_for`` (a task and an extra loop turn for every command); the rest, and every
    error it raises, as redis-py's own (mixed in before its connection class, see :func:`timed_writes`)."""

    socket_timeout: float | None
    _writer: asyncio.StreamWriter

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        """Send a packed command; a write stuck past the socket timeout drops the connection (TimeoutError)."""
        if not self.socket_timeout:
            await super().send_packed_command(command, check_health)  # type: ignore[misc]
            return
        if not self.is_connected:  # type: ignore[attr-defined]
            await self.connect_check_health(check_health=False)  # type: ignore[attr-defined]
        if check_health:
            await self.check_health()  # type: ignore[attr-defined]
        try:
            if isinstance(command, str):
                command = command.encode()
            if isinstance(command, bytes):
                command = [command]
            async with asyncio.timeout(self.socket_timeout):
                self._writer.writelines(command)
                await self._writer.drain()
        except TimeoutError:
            await self.disconnect(nowait=True)  # type: ignore[attr-defined]
            raise RedisTimeoutError("Timeout writing to socket") from None
        except OSError as exc:
            await self.disconnect(nowait=True)  # type: ignore[attr-defined]
            raise RedisConnectionError(f"Error while writing to socket. {exc}.") from exc
        except BaseException:  # a write cut off half-way: the connection cannot be used again
            await self.disconnect(nowait=True)  # type: ignore[attr-defined]
            raise


def timed_writes(pool: aioredis.ConnectionPool) -> aioredis.ConnectionPool:
    """``pool`` making its connections with :class:`TimedWrites` mixed into the class it chose (TCP, TLS, Unix)."""
    base = pool.connection_class
    if not issubclass(base, TimedWrites):
        pool.connection_class = type(f"TimedWrites{base.__name__}", (TimedWrites, base), {})
    return pool

"""redis-py connections with less work per command on the event loop (the bot sends ~7 round trips a move).

* **Packing in C.** redis-py's asyncio connection packs every command in Python (an ``encode`` call per argument:
  ~10 % of the loop's time under load); its sync client packs with ``hiredis.pack_command`` when hiredis is
  installed. Here the asyncio connection does the same, byte for byte (``tests/storage/test_connections.py``).
* **Writes bounded by a timer.** redis-py wraps every command's write in ``asyncio.wait_for`` when a socket timeout
  is set: on Python 3.11 a new task and an extra turn of the event loop per command. The same bound here is an
  ``asyncio.timeout`` (a timer handle), with the errors redis-py raises.
"""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as aioredis
from hiredis import pack_command as hiredis_pack  # a dependency (pyproject.toml), as redis-py's reply parser
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError
from redis.exceptions import TimeoutError as RedisTimeoutError


class LeanConnection:
    """A redis-py connection mixin (placed before its connection class, see :func:`lean_connections`): commands
    packed by hiredis, writes bounded by ``socket_timeout`` without a task; everything else as redis-py's."""

    socket_timeout: float | None
    _writer: asyncio.StreamWriter

    def pack_command(self, *args: Any) -> list[bytes]:
        """The command in the Redis protocol, packed by hiredis (as redis-py's sync client does)."""
        if isinstance(args[0], str):
            args = (*args[0].encode().split(), *args[1:])  # "SCRIPT LOAD" and the like: one argument a word
        elif b" " in args[0]:
            args = (*args[0].split(), *args[1:])
        try:
            return [hiredis_pack(args)]
        except TypeError:  # a bytearray or memoryview (copied to bytes, as redis-py does), or a bad argument
            pass
        args = tuple(bytes(arg) if isinstance(arg, bytearray | memoryview) else arg for arg in args)
        try:
            return [hiredis_pack(args)]
        except TypeError as exc:  # None, a bool, an object: what redis-py's encoder refuses too
            raise DataError(str(exc)) from exc

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


def lean_connections(pool: aioredis.ConnectionPool) -> aioredis.ConnectionPool:
    """``pool`` making its connections with :class:`LeanConnection` mixed into the class it chose (TCP, TLS, Unix)."""
    base = pool.connection_class
    if not issubclass(base, LeanConnection):
        pool.connection_class = type(f"Lean{base.__name__}", (LeanConnection, base), {})
    return pool

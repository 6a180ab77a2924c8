"""redis-py connections with less work per command on the event loop (the bot sends ~7 round trips a move).

* **Packing in C.** redis-py's asyncio connection packs every command in Python (an ``encode`` call per argument:
  ~10 % of the loop's time under load); its sync client packs with ``hiredis.pack_command`` when hiredis is
  installed. Here the asyncio connection does the same, byte for byte (``tests/storage/test_connections.py``).
* **A free connection taken without ceremony.** redis-py's bounded pool takes a condition's lock, starts a timeout,
  waits on the condition and records metrics for every command, and again to give the connection back (~5 % of the
  loop under load). :class:`LeanPool` takes and returns a free connection directly while nobody waits for one,
  still checking it (``ensure_connection``); otherwise, and in maintenance or with a credential provider, it is
  redis-py's pool.
* **Writes bounded by a timer.** redis-py wraps every command's write in ``asyncio.wait_for`` when a socket timeout
  is set: on Python 3.11 a new task and an extra turn of the event loop per command. Here a write the socket takes
  at once (nearly all) waits for nothing; only one left in the transport's buffer is waited for, bounded by an
  ``asyncio.timeout``, with the errors redis-py raises.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import redis.asyncio as aioredis
from hiredis import pack_command as hiredis_pack  # a dependency (pyproject.toml), as redis-py's reply parser
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError, ResponseError
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
            transport = self._writer.transport
            if transport.is_closing():  # nothing is sent: say so before, as drain would
                raise ConnectionResetError("the connection is closing")
            self._writer.writelines(command)
            if transport.get_write_buffer_size():  # the socket did not take it all at once: wait, bounded
                async with asyncio.timeout(self.socket_timeout):
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


class LeanPool(aioredis.BlockingConnectionPool):
    """redis-py's bounded pool (a command waits up to ``timeout`` for a free connection), with a fast path for the
    common case: a free connection and no other command waiting."""

    def _quiet(self) -> bool:
        """No command is waiting for a connection (nor taking one), and nothing special is on."""
        condition = self._condition
        waiters = getattr(condition, "_waiters", None)  # asyncio.Condition's queue of waiting tasks
        return not (self._in_maintenance or condition.locked() or waiters is None or waiters
                    or self.connection_kwargs.get("credential_provider") is not None)

    async def get_connection(self, command_name: Any = None, *keys: Any, **options: Any) -> Any:
        """A checked connection: a free one at once while nobody waits, else as redis-py's pool gives it."""
        if not (self._available_connections and self._quiet()):
            return await super().get_connection()
        connection = self._available_connections.pop()
        self._in_use_connections.add(connection)
        try:
            await self.ensure_connection(connection)
        except BaseException:
            await self.release(connection)
            raise
        return connection

    async def release(self, connection: Any) -> None:
        """Give a connection back: straight to the free list while nobody waits, else through the condition."""
        if not self._quiet():
            await super().release(connection)
            return
        self._in_use_connections.remove(connection)
        if connection.should_reconnect():
            await connection.disconnect()
        self._available_connections.append(connection)


async def exchange(pool: aioredis.ConnectionPool, commands: Sequence[tuple[Any, ...]]) -> list[Any]:
    """Send ``commands`` in one write on one pooled connection and read their raw answers, an error answer as its
    value (a pipeline without redis-py's pipeline object: no command stack, no reply callbacks, ~40 % less of the
    loop's time for a read). The connection always goes back to the pool; a failure or cancellation midway
    disconnects it first (an answer may be left in its socket)."""
    conn = await pool.get_connection()
    try:
        await conn.send_packed_command(conn.pack_commands(commands))
        answers: list[Any] = []
        for _ in commands:
            try:
                answers.append(await conn.read_response())
            except ResponseError as exc:
                answers.append(exc)
        return answers
    except BaseException:
        await conn.disconnect()
        raise
    finally:
        await pool.release(conn)


def lean_connections(pool: aioredis.ConnectionPool) -> aioredis.ConnectionPool:
    """``pool`` making its connections with :class:`LeanConnection` mixed into the class it chose (TCP, TLS, Unix)."""
    base = pool.connection_class
    if not issubclass(base, LeanConnection):
        pool.connection_class = type(f"Lean{base.__name__}", (LeanConnection, base), {})
    return pool

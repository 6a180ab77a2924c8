"""Run a real discord.py client against the fake for the length of an `async with` block."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TypeVar

import discord

from .server import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)


@contextlib.asynccontextmanager
async def running_bot(client: ClientT, token: str, *, timeout: float = 10.0) -> AsyncIterator[ClientT]:
    """Start `client` (login, gateway, READY, guilds) and yield it once it is ready; close it on exit.

    A start-up failure (bad token, unknown route during login, setup_hook error) is raised here
    instead of hanging. Close the client before stopping the fake, or discord.py tries to reconnect.
    """
    task = asyncio.create_task(client.start(token))
    waiter = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait({task, waiter}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if waiter not in done:
        waiter.cancel()
        await client.close()  # also closes discord.py's HTTP session after a failed login
        if task.done() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]  # the client's own start-up error
        task.cancel()
        raise AssertionError(f"discord.py client was not ready within {timeout}s")
    try:
        yield client
    finally:
        await client.close()
        await asyncio.wait_for(task, timeout)


async def modal_held(fake: FakeDiscord, client: discord.Client, custom_id: str) -> None:
    """Wait until ``client`` holds the modal ``custom_id`` it was asked to show: discord.py stores a modal (to
    route its submit) only after its response call returned, which may be after the stand-in saw the call.
    A person takes seconds to fill a form; a test submits at once, so it waits for this first."""
    store = client._connection._view_store  # discord.py's own registry of views and modals
    await fake.wait_for(lambda: custom_id in store._modals, what=f"discord.py to hold the modal {custom_id}")

"""Editing and deleting a stored message, the same for channel routes and webhook/interaction routes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from .models import RestCall, StoredMessage
from .responses import invalid, jresp
from .validation import message_problems

if TYPE_CHECKING:
    from .server import FakeDiscord


async def edit_message(fake: FakeDiscord, msg: StoredMessage, call: RestCall) -> web.Response:
    """Check the edit like Discord, apply it, announce MESSAGE_UPDATE and answer with the message."""
    if bad := invalid(message_problems(call.json or {}, call.files, creating=False)):
        return bad
    fake.apply_edit(msg, call.json or {}, call.files)
    await fake.announce("MESSAGE_UPDATE", msg)
    return jresp(fake.message_payload(msg))


async def delete_message(fake: FakeDiscord, msg: StoredMessage) -> web.Response:
    """Mark the message deleted and announce MESSAGE_DELETE."""
    msg.deleted = True
    await fake.announce("MESSAGE_DELETE", msg)
    return web.Response(status=204)

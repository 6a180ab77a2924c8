"""Buttons bound to one player. Telegram has no messages only one member of a group can see, so a
reply meant for the presser alone (the resign confirmation) is posted in the chat with its buttons
bound to him: the callback data gets a ``~<user id>~`` prefix, and anyone else's press is refused by
the frontend before the core sees it."""

from __future__ import annotations

from dataclasses import replace

from bot.delivery.replies import Reply
from bot.service.models import PlayerRef

from .keyboards import CALLBACK_DATA_MAX

_MARK = "~"


def bind(reply: Reply, owner: PlayerRef) -> Reply:
    """The reply with each button bound to owner (a button that would not fit stays unbound)."""
    buttons = []
    for button in reply.buttons:
        bound = f"{_MARK}{owner.user_id}{_MARK}{button.token}"
        buttons.append(replace(button, token=bound) if len(bound.encode()) <= CALLBACK_DATA_MAX else button)
    return replace(reply, buttons=tuple(buttons), private=False, mention=(owner,))


def unbind(data: str) -> tuple[str | None, str]:
    """(owner user id or None, the core's token) of callback data."""
    if data.startswith(_MARK):
        owner, mark, token = data[1:].partition(_MARK)
        if mark and owner:
            return owner, token
    return None, data

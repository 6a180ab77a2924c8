"""Challenge messages that say how the challenge ended: every commit that ends a challenge (accepted by text or
button, declined, cancelled, expired by its timer, superseded) writes a ``challenge`` outbox entry; its handler
here edits the stored challenge message once (its text says how it ended, its buttons go).

The frontend that posted the challenge stored where (``keys.challenge_message``, via
``BotCore.remember_challenge_message``). A message that has meanwhile become the game's board (Discord turns
an accepted challenge into the board) is left alone. An entry whose message is not known yet (the post is
still on its way) is retried for a short while, then dropped.

The handler of the command that ended a challenge edits its message at once (:meth:`ChallengeEnds.now`, with
the entry its commit wrote); the outbox entry, handled after its grace, is then the reconciler that edits it
only if that failed. Each edit is claimed first (``<message key>:edit``, a versioned string: "editing" for
``CLAIM_SECONDS``, then "done"), so the message is edited once, never again by a late second editor.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol, runtime_checkable

from bot.service import Place, keys
from bot.service.models import Msg
from bot.storage.base import Commit, Store

from .tracker import RetryLater

log = logging.getLogger(__name__)
UNKNOWN_FOR = 20.0  # seconds an entry waits for its challenge message to be known before it is dropped
MESSAGE_KEEP = 86400  # seconds a challenge message's ref is kept (a challenge lives minutes)
CLAIM_SECONDS = 30  # an edit in hand holds the message this long at most (its editor may die meanwhile)
DONE, BUSY, UNKNOWN, SKIPPED = "done", "busy", "unknown", "skipped"


@runtime_checkable
class ChallengeSurface(Protocol):
    """The platform call a frontend supplies: replace a challenge message's text and drop its buttons."""

    async def edit_challenge(self, ref: str, text: str) -> bool:
        """Edit message ``ref`` to ``text`` without buttons; False when the message is gone."""


Describe = Callable[[Place, Sequence[Msg]], Awaitable[str]]  # the messages translated for the place


def entry_messages(fields: dict[str, bytes]) -> tuple[str, Place, list[Msg]] | None:
    """(challenge id, place, messages) of a ``challenge`` outbox entry; None when unreadable."""
    try:
        cid = fields["id"].decode()
        platform, scope, channel = (str(x) for x in json.loads(fields["place"]))
        msgs = [Msg(str(k), dict(a)) for k, a in json.loads(fields.get("msgs", b"[]"))]
    except (KeyError, ValueError, TypeError, UnicodeDecodeError):
        return None
    return cid, Place(platform, scope, channel), msgs


async def remember(store: Store, challenge_id: str, ref: str) -> None:
    """Note where a challenge's message is (``channel:message``), so its end can be shown there."""
    await store.commit(Commit().put(keys.challenge_message(challenge_id), ref.encode(), MESSAGE_KEEP))


class ChallengeEnds:
    """Handles ``challenge`` outbox entries: edit the challenge's message once to say how it ended."""

    def __init__(self, store: Store, surface: ChallengeSurface, describe: Describe) -> None:
        self.store = store
        self.surface = surface
        self.describe = describe

    async def handle(self, fields: dict[str, bytes], age: float) -> bool:
        """Edit the message; True when done (edited, gone, a board now, edited already, or never known). Raises
        RetryLater while the message is not known yet or another editor holds it, or when the platform refuses
        for now."""
        parsed = entry_messages(fields)
        if parsed is None:
            return True
        state = await self._edit_once(*parsed)
        if state == BUSY:
            raise RetryLater(1.0)
        if state == UNKNOWN:
            if age < UNKNOWN_FOR:
                raise RetryLater(1.0)
            log.info("challenge %s ended but its message is not known; nothing to edit", parsed[0])
        return True

    async def now(self, fields: dict[str, bytes | str], skip: str | None = None) -> None:
        """The edit by the handler of the command that ended the challenge, at once; never raises (a failure
        is left to the outbox entry). ``skip``: the message the command's answer replaced itself (a click)."""
        parsed = entry_messages({k: v.encode() if isinstance(v, str) else v for k, v in fields.items()})
        if parsed is None:
            return
        try:
            await self._edit_once(*parsed, skip=skip)
        except Exception as exc:  # the outbox entry edits it after its grace
            log.info("the message of challenge %s is left to the outbox (%r)", parsed[0], exc)

    async def _edit_once(self, cid: str, place: Place, messages: list[Msg], skip: str | None = None) -> str:
        """Claim the message, edit it, mark it done: DONE, or BUSY (another editor holds it), UNKNOWN (not
        known yet), SKIPPED (it is ``skip``). A failed edit releases the claim and raises."""
        key, claim = keys.challenge_message(cid), claim_key(cid)
        raw, held = await self.store.read([("get", key), ("get", claim)])
        if held is not None:
            return DONE if bytes(held).endswith(b":done") else BUSY
        if raw is None:
            return UNKNOWN
        ref = raw.decode(errors="replace")
        if ref == skip:
            return SKIPPED
        if not await self.store.commit(Commit().expect(claim, 0).put_versioned(claim, 1, b"editing", CLAIM_SECONDS)):
            return BUSY
        try:
            board = (await self.store.read([("get", keys.board_game(ref))]))[0]
            if board is None:  # still the challenge message (not turned into the game's board)
                text = await self.describe(place, messages)
                if not await self.surface.edit_challenge(ref, text):
                    log.info("the message of challenge %s is gone", cid)
        except Exception:
            await self.store.commit(Commit().delete(claim))  # the next editor (the outbox entry) tries again
            raise
        await self.store.commit(Commit().put_versioned(claim, 2, b"done", MESSAGE_KEEP).delete(key))
        return DONE


def claim_key(cid: str) -> str:
    """Who edits (or edited) a challenge's message: ``1:editing`` while one editor holds it, ``2:done`` after."""
    return f"{keys.challenge_message(cid)}:edit"

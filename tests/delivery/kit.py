"""Test plumbing for bot/delivery: a core on the shared real redis-server, a board surface with fault
injection (status-like failures, retry_after, delays, gone messages) and a game driver."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.chat.core import BotCore
from bot.delivery import RetryLater
from bot.delivery.replies import Notice, Reply
from bot.delivery.tracker import Undeliverable
from bot.service import Place, PlayerRef

ALICE = PlayerRef("telegram", "1", "alice")
BOB = PlayerRef("telegram", "2", "bob")
GROUP = Place("telegram", "-100", "-100")


@dataclass
class FakeSurface:
    """Records board edits/posts; ``outage`` makes every call fail with RetryLater(retry_after); ``forbidden``
    with Undeliverable (the platform refuses for good, e.g. the bot lost its permission in the chat)."""

    outage: bool = False
    forbidden: bool = False
    retry_after: float | None = 0.05
    delay: float = 0.0
    gone: set[str] = field(default_factory=set)  # refs whose message was deleted
    edits: list[tuple[str, int | None]] = field(default_factory=list)  # (ref, version) that succeeded
    posts: list[tuple[str, int | None]] = field(default_factory=list)
    refused: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    _next: int = 0

    async def _call(self) -> None:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            if self.outage:
                self.refused += 1
                raise RetryLater(self.retry_after)
            if self.forbidden:
                self.refused += 1
                raise Undeliverable("403: missing permissions")
        finally:
            self.in_flight -= 1

    async def edit_board(self, ref: str, reply: Reply) -> bool:
        await self._call()
        if ref in self.gone:
            return False
        self.edits.append((ref, reply.version))
        return True

    async def post_board(self, place: Place, reply: Reply) -> str:
        await self._call()
        self._next += 1
        ref = f"{place.channel_id}:{self._next}"
        self.posts.append((ref, reply.version))
        return ref

    def versions(self) -> list[int | None]:
        """Every version shown, in order (posts and edits)."""
        return [v for _, v in sorted(self.posts + self.edits, key=lambda e: e[1] or 0)]


@dataclass
class FakeSink:
    """Collects delivered notices."""

    notices: list[Notice] = field(default_factory=list)

    async def deliver_notice(self, notice: Notice) -> None:
        self.notices.append(notice)


async def start_game(core: BotCore) -> str:
    """Alice challenges Bob in the group, Bob accepts; the game id."""
    await core.handle_text(ALICE, GROUP, "challenge @bob", mentions={"@bob": BOB})
    accepted = await core.handle_text(BOB, GROUP, "accept")
    game = next(r.game_id for r in accepted.replies if r.game_id)
    assert game is not None
    return game


async def play(core: BotCore, plies: int) -> int:
    """Play ``plies`` turns (the first legal play of whoever is to move); the plies played."""
    done = 0
    for _ in range(plies):
        for player in (ALICE, BOB):
            plays = await core.suggest_plays(player, GROUP)
            if plays:
                handled = await core.handle_text(player, GROUP, plays[0])
                assert not any(r.error for r in handled.replies), handled.replies
                done += 1
                break
        else:
            return done
    return done


async def stored_version(core: BotCore, game: str) -> int:
    result = await core.service.view_of(game)
    assert result.view is not None
    return result.view.version

"""The words around the board in Chromium: the viewer's own seat is marked "(you)" after a real name but
not after a name that already says it (the terminal's "You"/"Εσύ")."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from bot.service.session import Session
from fevga import Game
from tests.fakes.telegram import FakeTelegram
from tests.telegram.harness import Chat, CoreSpy, actor_ref, game_view, group_place
from tests.telegram.scenes import group_game

from .harness import Chromium, Site
from .tavli import change_session, store_game, tavli_game
from .test_tavli import open_seat


def started(game: Game) -> bool:
    return len(game.history) >= 2


def renamed(seat: int, name: str) -> Callable[[Session], None]:
    """A change of the stored session: the player at ``seat`` named ``name`` (the same account)."""
    def change(session: Session) -> None:
        names = list(session.players)
        names[seat] = dataclasses.replace(names[seat], name=name)
        session.players = (names[0], names[1])
    return change


async def test_the_viewers_own_seat_says_you_once(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
) -> None:
    alice, bob, room, _board = await group_game(fake, chat, core)
    view = await game_view(core, actor_ref(alice), group_place(room))
    version = await store_game(core.real, view.game_id, tavli_game("portes", started))
    gid, users = view.game_id, [{"101": alice, "102": bob}[view.players[seat].user_id] for seat in (0, 1)]
    page = await open_seat(browser, site, gid, version, users[0])
    assert await page.inner_text("#seat-bottom .name") == f"{users[0].first_name} (you)"  # a real name: marked
    assert await page.inner_text("#seat-top .name") == users[1].first_name
    await page.close()

    version = await change_session(core.real, gid, renamed(0, "You"))
    page = await open_seat(browser, site, gid, version, users[0])
    assert await page.inner_text("#seat-bottom .name") == "You"  # not "You (you)"
    await page.close()

    await chat.say(users[1], room, "/lang el")
    version = await change_session(core.real, gid, renamed(1, "Εσύ"))
    page = await open_seat(browser, site, gid, version, users[1])
    assert await page.evaluate("() => FV.app.state.lang") == "el"
    assert await page.inner_text("#seat-bottom .name") == "Εσύ"  # not "Εσύ (εσύ)"
    assert await page.inner_text("#seat-top .name") == "You"  # the other seat: never marked
    await page.close()

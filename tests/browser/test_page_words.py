"""The words around the board in Chromium: the viewer's own seat is marked "(you)" after a real name but
not after a name that already says it (the terminal's "You"/"Εσύ"); a tavli match's heading names the game
once and its match line is the board's (and the terminal's) in both languages."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from bot.chat.presenter import board_labels
from bot.service.session import Session
from fevga import Game
from renderers.labels import label
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


def second_game_of_tavli(session: Session) -> None:
    """The stored game as the second of a tavli match to 3 (Plakoto after Portes), seat 0 leading 1-0."""
    session.kind, session.length, session.game_no, session.score = "tavli", 3, 2, [1, 0]


async def test_a_tavli_match_line_reads_as_the_boards_and_names_the_game_once(
    fake: FakeTelegram, core: CoreSpy, chat: Chat, site: Site, browser: Chromium
) -> None:
    alice, bob, room, _board = await group_game(fake, chat, core)
    view = await game_view(core, actor_ref(alice), group_place(room))
    await store_game(core.real, view.game_id, tavli_game("plakoto", started))
    version = await change_session(core.real, view.game_id, second_game_of_tavli)
    users = [{"101": alice, "102": bob}[view.players[seat].user_id] for seat in (0, 1)]
    await chat.say(users[1], room, "/lang el")
    # (seat, language, the game's name, the match line: the viewer's score first)
    for seat, lang, name, line in ((0, "en", "Plakoto", "game 2 of tavli to 3 · 1–0"),
                                   (1, "el", "Πλακωτό", "παρτίδα 2 · τάβλι στα 3 · 0–1")):
        page = await open_seat(browser, site, view.game_id, version, users[seat])
        assert await page.evaluate("() => FV.app.state.lang") == lang
        words = label(board_labels(lang), "tavli_game", n=2, length=3)  # the board's (and terminal's) words
        assert line.startswith(words + " · ")
        assert await page.inner_text("#match") == line
        assert await page.inner_text("#title") == name and await page.title() == name
        header = await page.inner_text("header") + await page.inner_text("#match")
        assert header.count(name) == 1, header  # the game's name once
        await page.close()

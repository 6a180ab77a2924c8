"""Languages through discord.py and the fake Discord: the board of a channel stays in the server's language
whoever moves, while each player's own replies (his language, his settings) come in his language, privately;
until he chooses one, his language is his Discord client's (``interaction.locale``)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.command_text import text
from bot.i18n import translate
from tests.fakes.discord import FakeDiscord, FakeMember, StoredMessage

from .conftest import World
from .playing import MAX_TURNS, step_ids, take_turn_by_slash

pytestmark = pytest.mark.timeout(180)


async def _private(fake: FakeDiscord, member: FakeMember, channel: Any, command: str, *, locale: str = "en-US",
                   **options: Any) -> str:
    """Run a slash command (from a Discord client in ``locale``) whose answer must be ephemeral; its text."""
    handle = await fake.slash_command(member, channel, command, options, locale=locale)
    assert (await handle.response()).ephemeral, command
    message = await handle.original()
    return " ".join([message.content or "", *(str(e.get("title", "")) + str(e.get("description", ""))
                                               for e in message.embeds)])


async def _play_checking_the_board(core: Any, fake: FakeDiscord, w: World, lang: str) -> int:
    """Alice challenges Bob, Bob accepts; every turn (either player's) the board's title is in ``lang``."""
    challenge = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})).original()
    assert any(c.startswith("fv:accept:") for c in challenge.custom_ids()), challenge.content
    board: StoredMessage = await (await fake.slash_command(w.bob, w.general, "fevga accept")).original()
    word = translate("caption_turn", lang, player="", dice="").strip()
    turns, misses, seat = 0, 0, 0
    players = [w.alice, w.bob]
    for _ in range(MAX_TURNS):
        if not step_ids(board):
            break
        title = str(board.embeds[0].get("title", ""))
        assert word in title, (turns, title)
        for custom_id in (c for c in board.custom_ids() if c.startswith("fvs:")):  # the widgets' texts too
            assert board.component(custom_id).get("placeholder") == text("ui.step", lang), (turns, custom_id)
        if await take_turn_by_slash(core, fake, w.general, players[seat]):
            turns, misses = turns + 1, 0
        else:
            misses += 1
            assert misses < 3
        seat ^= 1
    shown = " ".join([board.content or "", *(str(e.get("title", "")) for e in board.embeds)])
    assert ("κερδίζει" if lang == "el" else "wins") in shown, shown  # the result too
    return turns


async def test_the_board_stays_english_when_a_greek_player_moves(
    fake: FakeDiscord, bot: Any, world: World, core: Any
) -> None:
    w = world
    said = await _private(fake, w.alice, w.general, "fevga lang", code="el")
    assert translate("setting_changed", "el", name="lang", value="el") in said  # private, in her new language
    assert await _play_checking_the_board(core, fake, w, "en") >= 10
    assert not fake.failed_calls()


async def test_the_board_stays_greek_when_an_english_player_moves(
    fake: FakeDiscord, bot: Any, world: World, core: Any
) -> None:
    w = world
    changed = await fake.slash_command(w.alice, w.general, "fevga settings", {"name": "place_lang", "value": "el"})
    assert not (await changed.response()).ephemeral  # a place setting is announced to everyone
    said = await _private(fake, w.bob, w.general, "fevga lang", code="en")
    assert translate("setting_changed", "en", name="lang", value="en") in said
    said = await _private(fake, w.bob, w.general, "fevga settings", name="autoplay", value="off")
    assert translate("setting_changed", "en", name="autoplay", value="off") in said  # personal: his language
    assert await _play_checking_the_board(core, fake, w, "el") >= 10
    assert not fake.failed_calls()


async def test_a_new_user_is_answered_in_his_discord_clients_language(
    fake: FakeDiscord, bot: Any, world: World, core: Any
) -> None:
    w = world
    no_game = await _private(fake, w.carol, w.general, "fevga board", locale="el")
    assert translate("no_game_here", "el", here="").split()[0] in no_game, no_game
    assert translate("no_game_here", "en", here="").split()[0] in await _private(fake, w.bob, w.general, "fevga board")
    # a click too: Bob's client speaks Greek, the challenge is for Carol
    challenge = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.carol})).original()
    accept = next(c for c in challenge.custom_ids() if c.startswith("fv:accept:"))
    click = await fake.press_button(w.bob, challenge, accept, locale="el")
    assert (await click.response()).ephemeral
    refused = await click.original()
    assert refused.content == translate("challenge_for_other", "el", player="carol")
    assert any(c.startswith("fv:accept:") for c in challenge.custom_ids())  # still open, for Carol
    # his own choice wins over his client's language; the channel's messages stay in the server's language
    assert translate("setting_changed", "en", name="lang", value="en") in await _private(
        fake, w.carol, w.general, "fevga lang", locale="el", code="en")
    again = await _private(fake, w.carol, w.general, "fevga board", locale="el")
    assert translate("no_game_here", "en", here="").split()[0] in again, again
    assert not any("\u0391" <= ch <= "\u03c9" for ch in challenge.content)
    assert not fake.failed_calls()

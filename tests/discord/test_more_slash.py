"""The typed-only commands' slash forms through the real discord.py stack and the local stand-in:
``/fevga-more dice``, ``h2h`` and ``puzzle`` and the ``/tournament`` group's ``join``, ``remove``,
``standings`` and ``list`` answer as the typed commands do (bad input: the typed command's message); a
puzzle answered by slash is told to its author only (ephemeral), never in the channel."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from bot.chat.presenter import context_words
from bot.discord import lines
from bot.i18n import translate
from bot.service.keys import place_bucket
from bot.service.puzzles import keys
from bot.storage import Commit
from fevga import format_play
from fevga.play import format_steps
from fevga.puzzles import ordered_plays
from tests.fakes.discord import FakeDiscord
from tests.service.helpers import random_play

from .conftest import World
from .playing import place_ref, player_ref

pytestmark = pytest.mark.timeout(90)


def test_lines_of_the_new_slash_commands() -> None:
    assert lines.dice_line(None, None) == "dice"
    assert lines.dice_line(7, None) == "dice <@7>"
    assert lines.dice_line(None, " g12 extra ") == "dice g12"
    assert lines.h2h_line(7, None) == "h2h <@7>" and lines.h2h_line(7, 8) == "h2h <@7> <@8>"
    assert lines.puzzle_line(None) == "puzzle" and lines.puzzle_line(" 1/7\n7/12 ") == "puzzle 1/7 7/12"
    assert lines.tournament_line("join") == "tournament join"
    assert lines.tournament_line("standings", "t3 x") == "tournament standings t3"


async def _said(fake: FakeDiscord, member: Any, channel: Any, name: str, options: dict[str, Any] | None = None,
                locale: str = "en-US") -> str:
    """The text (content and embeds) of the answer to a slash command."""
    answer = await (await fake.slash_command(member, channel, name, options, locale=locale)).original()
    return answer.content + " ".join(str(e) for e in answer.embeds)


async def test_dice_h2h_and_puzzle_by_slash(fake: FakeDiscord, bot: Any, core: Any, world: World) -> None:
    w = world
    alice, bob, place = player_ref(w.alice), player_ref(w.bob), place_ref(w.general)
    assert (await core.service.challenge(alice, place, bob)).ok
    view = (await core.service.accept(bob, place)).view
    rng = random.Random(9)
    while view.status == "play":  # one match played through the service
        result = await core.service.move(view.players[view.turn], place, format_play(random_play(view, rng)),
                                         game_id=view.game_id)
        assert result.ok
        view = result.view
    dice = await _said(fake, w.carol, w.general, "fevga-more dice", {"user": w.bob})
    assert "bob: " in dice and "rolls in 1 game;" in dice and "Too few rolls for a verdict" in dice
    mine = await _said(fake, w.carol, w.general, "fevga-more dice")
    assert mine == translate("dice_none", "en", player="carol")
    both = await _said(fake, w.carol, w.general, "fevga-more dice", {"user": w.bob, "game": view.game_id})
    assert both == translate("cmd_too_many_words", "en", command="dice")  # one of the two, as typed

    h2h = await _said(fake, w.alice, w.general, "fevga-more h2h", {"user": w.bob})
    assert "alice vs bob: 1 match;" in h2h and ("matches 0-1" in h2h or "matches 1-0" in h2h)
    two = await _said(fake, w.carol, w.general, "fevga-more h2h", {"user": w.bob, "other": w.alice})
    assert "bob vs alice: 1 match;" in two

    puzzle = await _said(fake, w.carol, w.general, "fevga-more puzzle", locale="el")
    assert puzzle.replace("\\_", "_") == translate("puzzle_no_daily", "el", **context_words("discord", "el"))  # Greek
    assert not fake.failed_calls()


async def test_tournament_commands_by_slash(fake: FakeDiscord, bot: Any, core: Any, world: World) -> None:
    w = world
    assert await _said(fake, w.bob, w.general, "tournament list") == translate("tournaments_none", "en")
    assert await _said(fake, w.bob, w.general, "tournament join") == translate("tournament_none", "en")
    said = await fake.send_message(w.alice, w.general, "!fevga tournament create swiss rounds 3 points 1 deadline 24h")
    created = await fake.wait_for_message(w.general, lambda m: m.author.bot, after=said.id)
    assert "is open" in created.content
    assert (await _said(fake, w.bob, w.general, "tournament join")).startswith("bob joins the tournament (1 player)")
    assert (await _said(fake, w.carol, w.general, "tournament join")).startswith("carol joins")
    refused = await _said(fake, w.bob, w.general, "tournament remove", {"user": w.carol})
    assert refused == translate("tournament_admin_only", "en", **context_words("discord", "en"))
    removed = await _said(fake, w.alice, w.general, "tournament remove", {"user": w.carol})
    assert removed.startswith("carol is out of the tournament")
    _version, event = await core.service.tournaments.current(place_ref(w.general))
    assert event is not None
    listed = await _said(fake, w.bob, w.general, "tournament list")

    def unescaped(text: str) -> str:  # an id's "_" is escaped in Discord text (markdown): read as shown
        return text.replace("\\", "")

    assert listed.startswith("Tournaments here:") and f"{event.id}: open for players" in unescaped(listed)
    standings = await _said(fake, w.bob, w.general, "tournament standings", {"tournament": event.id})
    assert event.id in unescaped(standings)
    assert not fake.failed_calls()


async def test_daily_puzzle_answered_by_slash_privately(fake: FakeDiscord, bot: Any, core: Any, world: World) -> None:
    w = world
    said = await fake.send_message(w.alice, w.general, "!fevga settings puzzle_hour 9")
    await fake.wait_for_message(w.general, lambda m: m.author.bot, after=said.id)
    place = place_ref(w.general)
    due = keys.daily_due(place_bucket(place))
    await core.store.commit(Commit().zadd(due, keys.daily_member(place), time.time() - 1))  # the hour has come
    await core.tick("discord", notices=False)  # the day's puzzle is posted in the channel
    await fake.wait_for_message(w.general, lambda m: m.author.bot and "Daily puzzle" in m.content, timeout=20)
    _version, doc = await core.service.puzzles.daily.load(place)
    found = await core.service.puzzles.bank.get(doc["pid"])
    assert found is not None
    puzzle = found[0]

    shown = await (await fake.slash_command(w.bob, w.general, "fevga-more puzzle")).original()
    assert "Daily puzzle" in shown.content and not shown.ephemeral  # showing it is public
    right = await fake.slash_command(w.alice, w.general, "fevga-more puzzle", {"play": puzzle.answer})
    ack = await right.response()
    assert ack.type == 5 and ack.ephemeral  # acknowledged privately at once: no public "thinking..." with the play
    told = await right.original()
    assert told.ephemeral and told.content.startswith("Right!")
    wrong = next(format_steps(p.steps) for p in ordered_plays(puzzle.start(), puzzle.dice)
                 if p.result.id() != puzzle.result)
    told = await (await fake.slash_command(w.bob, w.general, "fevga-more puzzle", {"play": wrong})).original()
    assert told.ephemeral and told.content.startswith("Not the best") and puzzle.answer in told.content
    public = [m.content for m in fake.messages(w.general) if m.author.bot]
    assert not any(t.startswith(("Right!", "Not the best")) for t in public)  # nothing told in the channel
    assert not fake.failed_calls()


async def test_help_topics_offer_every_command(fake: FakeDiscord, bot: Any, world: World) -> None:
    w = world  # more commands than Discord's 25 fixed choices: the topics are offered as the member types
    typing = await fake.autocomplete(w.carol, w.general, "fevga help", {"topic": "tour"}, focused="topic")
    assert [c["value"] for c in (await typing.response()).choices] == ["tournament", "tournaments"]
    every = await fake.autocomplete(w.carol, w.general, "fevga help", {"topic": ""}, focused="topic")
    assert len((await every.response()).choices) == 25  # Discord's maximum; typing narrows them
    told = await (await fake.slash_command(w.carol, w.general, "fevga help", {"topic": "tournaments"})).original()
    assert told.content.replace("\\", "") == translate("help_tournaments", "en", **context_words("discord", "en"))

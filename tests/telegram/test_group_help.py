"""Help in a Telegram group with privacy mode on, through the real PTB stack: every play it shows is in a form
that reaches the bot there (``/m 1/7 7/12``, a reply to the board), in English and in Greek, and each such
form, sent by the player to move, does reach it. A private chat (where every text reaches the bot) keeps the
plain forms."""

from __future__ import annotations

import re

from tests.fakes.telegram import FakeTelegram, FakeUser

from .harness import Chat, CoreSpy, actor_ref, game_view, group_place
from .scenes import group_game

_STEP = r"(?:\d{1,2}|[α-ω])(?:/(?:\d{1,2}|[α-ω]|off))+(?:\(\d\))?"
PLAY = re.compile(rf"(?<![\w/]){_STEP}(?: {_STEP})*(?![\w/])")  # 1/7 7/12, 1/7/12, 19/off, 1/6(2), α/ζ
PASS = re.compile(r"(?<![\w/])(?:pass|πάσο)(?!\w)")
REACHING = ("/m ", "/move ")
REPLY_WORDS = {"en": "reply to the board", "el": "απάντησε στο ταμπλό"}


def shown_plays(text: str) -> list[tuple[str, str]]:
    """Every play the text shows, with the text of its line before it."""
    found = []
    for line in text.splitlines():
        for pattern in (PLAY, PASS):
            found.extend((line[: match.start()], match.group()) for match in pattern.finditer(line))
    return found


async def ask_help(fake: FakeTelegram, chat: Chat, user: FakeUser, room: object, asked: str) -> str:
    await chat.say(user, room, asked)
    answer = fake.last_bot_message(room)
    assert answer.kind == "text", answer
    return str(answer.content)


async def test_group_help_shows_only_plays_that_reach_the_bot(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    fake.privacy_mode = True
    alice, _bob, room, board = await group_game(fake, chat, core)
    view = await game_view(core, actor_ref(alice), group_place(room))
    mover = fake.users[int(view.players[view.turn].user_id)]
    for lang in ("en", "el"):
        await chat.say(mover, room, f"/lang {lang}")
        for asked in ("/help", "/help move", "/help pass", "/help@fevga_test_bot m"):
            text = await ask_help(fake, chat, mover, room, asked)
            plays = shown_plays(text)
            assert len(plays) >= 3, (asked, text)  # the help does show plays (and the test finds them)
            for before, play in plays:
                assert before.endswith(REACHING), f"{asked} ({lang}) shows the play {play!r} as: {before}{play}"
            assert REPLY_WORDS[lang] in text, (asked, lang)
            withheld = len(fake.withheld)
            for before, play in plays:  # each form shown, sent as shown, reaches the bot and is answered
                form = before[before.rfind("/m"):] + play
                await chat.say(mover, room, form)
                assert len(fake.withheld) == withheld, form
                assert fake.last_bot_message(room).reply_to is not None, form
    await chat.say(mover, room, "1/7 7/12", reply_to=board)  # the reply to the board the help names
    assert len(fake.withheld) == withheld and fake.last_bot_message(room).reply_to is not None


async def test_private_help_keeps_the_plain_play(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    dora = fake.user(104, "Dora", "dora")
    home = fake.private_chat(dora)
    text = await ask_help(fake, chat, dora, home, "/help")
    assert "• 1/7 7/12 (or move 1/7 7/12)" in text  # in a private chat every text reaches the bot
    assert "/setprivacy" not in text


async def test_group_help_lists_every_command_the_private_help_lists(fake: FakeTelegram, core: CoreSpy,
                                                                     chat: Chat) -> None:
    """The group's help (slash forms) names every command of the core's help, in English and in Greek."""
    fake.privacy_mode = True
    alice, _bob, room, _board = await group_game(fake, chat, core)
    words = ("challenge", "accept", "decline", "cancel", "ai", "board", "hint", "undo", "confirm", "resign", "abort",
             "claim", "rematch", "top", "stats", "h2h", "dice", "mygames", "export", "replay", "analyze",
             "tournament", "ping", "puzzle", "lang", "settings", "rules")
    english = await ask_help(fake, chat, alice, room, "/help")
    await core.service.set_setting(actor_ref(alice), group_place(room), "lang", "el")
    greek = await ask_help(fake, chat, alice, room, "/help")
    assert greek != english
    for text in (english, greek):
        missing = [w for w in words if not re.search(rf"/{w}\b", text)]
        assert not missing, (missing, text)

"""What players get wrong: a third user pressing the players' buttons, moves out of turn, stale and forged
buttons, malformed text, a challenge to oneself or to a stranger. Each gets the core's specific message
(an alert for a button, a reply for text) and nothing changes: same game version, same board."""

from __future__ import annotations

import random
from typing import Any

from bot.i18n import translate
from tests.fakes.telegram import FakeMessage, FakeTelegram, FakeUser

from .harness import Chat, CoreSpy, actor_ref, game_view, group_place
from .scenes import a_legal_play, group_game, seats


class Unchanged:
    """Remembers the game version, the board and the bot's messages, to assert nothing moved."""

    def __init__(self, fake: FakeTelegram, room: Any, board: FakeMessage, view: Any) -> None:
        self.fake, self.room, self.board, self.view = fake, room, board, view
        self.edits = len(board.history)
        self.keyboard = board.callback_datas
        self.sent = len(fake.bot_messages(room))

    async def check(self, core: CoreSpy, alice: FakeUser, new_messages: int = 0) -> None:
        view = await game_view(core, actor_ref(alice), group_place(self.room))
        assert (view.version, view.position_id, view.pending) == (self.view.version, self.view.position_id, ())
        assert len(self.board.history) == self.edits and self.board.callback_datas == self.keyboard
        assert len(self.fake.bot_messages(self.room)) == self.sent + new_messages


async def test_buttons_pressed_by_the_wrong_people_change_nothing(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    alice, _bob, room, board = await group_game(fake, chat, core)
    view, _mover, waiting = await seats(core, fake, alice, room)
    carol = fake.user(103, "Carol", "carol_tavli")
    step = core.tokens("step")[0]
    same = Unchanged(fake, room, board, view)

    stranger = await chat.press(carol, board, step)
    assert (stranger.text, stranger.show_alert) == (translate("not_in_game", "en"), True)
    out_of_turn = await chat.press(waiting, board, step)
    assert out_of_turn.show_alert and out_of_turn.text == translate("not_your_turn", "en", player=_name(view))
    resign = await chat.press(carol, board, core.tokens("resign")[0])
    assert resign.show_alert and resign.text == translate("not_in_game", "en")
    await same.check(core, alice)


async def test_stale_and_forged_buttons_get_an_alert(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    alice, _bob, room, board = await group_game(fake, chat, core)
    view, mover, _waiting = await seats(core, fake, alice, room)
    old_step = core.tokens("step")[0]
    await chat.say(mover, room, f"/move {a_legal_play(view, random.Random(1))}")
    view, mover, _waiting = await seats(core, fake, alice, room)
    same = Unchanged(fake, room, board, view)

    stale = await chat.press(mover, board, old_step, check=False)  # an old keyboard still on a phone
    out_of_date = {translate(key, "en") for key in ("stale_action", "button_stale", "turn_already_played")}
    assert stale.show_alert and stale.text in out_of_date
    forged = await chat.press(mover, board, "S.nogame.1.1.6", check=False)
    assert forged.show_alert and forged.text
    junk = await chat.press(mover, board, "x" * 64, check=False)
    assert junk.show_alert and junk.text == translate("button_unknown", "en")
    await same.check(core, alice)
    answers = fake.calls_of("answerCallbackQuery")
    assert len(answers) == 3 and all(c.ok for c in answers)  # each press answered exactly once


async def test_moves_out_of_turn_and_malformed_text_change_nothing(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    alice, _bob, room, board = await group_game(fake, chat, core)
    view, mover, waiting = await seats(core, fake, alice, room)
    same = Unchanged(fake, room, board, view)
    play = a_legal_play(view, random.Random(2))

    cases: list[tuple[FakeUser, str, FakeMessage | None, str]] = [
        (waiting, f"/move {play}", None, translate("not_your_turn", "en", player=_name(view))),
        (waiting, play, board, translate("not_your_turn", "en", player=_name(view))),
        (mover, "/move", None, translate("cmd_move_what", "en") + "\n\n" + translate("group_tg_move_hint", "en")),
        (mover, "/m 0/30", None, ""),
        (mover, "25/1 1/2", board, ""),
        (mover, "/frobnicate", None, ""),
    ]
    for sent, (user, text, reply_to, expected) in enumerate(cases, start=1):
        await chat.say(user, room, text, reply_to=reply_to)
        answer = fake.last_bot_message(room)
        assert answer.kind == "text" and answer.reply_to is not None and answer.reply_to.text == text
        assert answer.text == expected if expected else answer.text and "Traceback" not in answer.text
        await same.check(core, alice, new_messages=sent)
    assert board.photo is not None and fake.last_bot_message(room).text != board.caption


async def test_a_challenge_to_oneself_or_to_a_stranger_is_refused(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    alice = fake.user(101, "Alice", "alice_tavli")
    room = fake.group(-1001, "Tavli")
    await chat.say(alice, room, "/challenge @alice_tavli")
    assert fake.last_bot_message(room).text == translate("challenge_self", "en")
    mine = fake.text_message(alice, room, "who wants to play?")
    await chat.say(alice, room, "/challenge", reply_to=mine)
    assert fake.last_bot_message(room).text == translate("challenge_self", "en")
    await chat.say(alice, room, "/challenge @never_seen_here")
    assert fake.last_bot_message(room).text == translate("cmd_unknown_player", "en", name="@never_seen_here")
    assert all(not m.buttons for m in fake.bot_messages(room))  # no challenge was made


def _name(view: Any) -> str:
    return str(view.players[view.turn].name)

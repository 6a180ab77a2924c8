"""A player who leaves a Telegram group, through the real stack (PTB -> fake Bot API, a ``chat_member``
update): withdrawn from the group's running tournament, his match won by his opponent at once, and the
verdict posted in the group (through the outbox)."""

from __future__ import annotations

from typing import Any

from bot.delivery.replies import Notice, Reply
from bot.service.models import Place
from tests.fakes.telegram import FakeTelegram
from tests.telegram.test_tournament import until

from .harness import Chat, CoreSpy, actor_ref, group_place


async def test_player_who_leaves_forfeits(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    players = [fake.user(301 + n, name, f"g{n}_tavli") for n, name in enumerate(["Anna", "Bob", "Cleo", "Dora"])]
    room = fake.group(-3001, "Tavli club")
    fake.make_owner(room, players[0])
    await chat.say(players[0], room, "/tournament create swiss rounds 2")
    for p in players:
        await chat.say(p, room, "/tournament join")
    await chat.say(players[0], room, "/tournament start")
    events = core.service.tournaments
    _v, t = await events.current(group_place(room))
    assert t is not None and t.status == "running"
    gone = players[3]
    pair = next(p for p in t.pairs if str(gone.id) in (p.a, p.b))
    winner = pair.b if pair.a == str(gone.id) else pair.a
    fake.member_left(gone, room, "kicked")
    await chat.idle()
    told = await until(lambda: [m for m in fake.bot_messages(room) if "left this group" in m.content], 20, "verdict")
    assert t.name_of(winner) in told[0].content
    _v, t = await events.load(t.id)
    assert t is not None and str(gone.id) in t.gone and gone.id not in {int(p) for p in t.active()}
    view = (await core.service.board(actor_ref(gone), group_place(room))).view
    assert view is None or view.status != "play"  # his match is over


async def test_player_who_blocked_the_bot_is_withdrawn(fake: FakeTelegram, core: CoreSpy, chat: Chat, app: Any):
    """A private message refused with 403 "bot was blocked by the user" withdraws him from every event."""
    players = [fake.user(311 + n, name, f"b{n}_tavli") for n, name in enumerate(["Anna", "Bob", "Cleo"])]
    room = fake.group(-3002, "Tavli club 2")
    fake.make_owner(room, players[0])
    await chat.say(players[0], room, "/tournament create swiss rounds 2 start 2h")
    for p in players:
        await chat.say(p, room, "/tournament join")
    blocker = actor_ref(players[2])
    background = app.bot_data["fevga"].background
    fake.fail_next("sendMessage", 1, 403, "Forbidden: bot was blocked by the user")
    notice = Notice(Place("telegram", "nowhere", "not-a-chat"), Reply(text="Your turn."), direct_to=(blocker,))
    await background.deliver_notice(notice)  # only the private copy is sent (no chat to post in)
    assert [c.ok for c in fake.calls_of("sendMessage")][-1] is False
    _v, t = await core.service.tournaments.current(group_place(room))
    assert t is not None and [e.id for e in t.players] == [str(players[0].id), str(players[1].id)]

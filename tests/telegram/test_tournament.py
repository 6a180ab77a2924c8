"""A 4-player Swiss tournament in a Telegram group, end to end through the real stack (PTB -> fake Bot API,
real core on a real Redis): the owner creates and starts it, players join, each round's pairings ping the
paired players, matches are played and resigned in the chat, the standings picture follows each round,
and the final message names the winner."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from bot.chat.presenter import context_words
from bot.i18n import translate
from tests.fakes.telegram import FakeTelegram, FakeUser

from .harness import Chat, CoreSpy, actor_ref, game_view, group_place
from .scenes import a_legal_play


async def until(check: Any, seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def texts(fake: FakeTelegram, room: Any) -> list[str]:
    return [m.content for m in fake.bot_messages(room)]


async def finish_match(fake: FakeTelegram, chat: Chat, core: CoreSpy, room: Any, player: FakeUser,
                       rng: random.Random) -> None:  # fmt: skip
    """Both players of ``player``'s match move (in the chat); then ``player`` resigns the match."""
    users = {u.id: u for u in fake.users.values()}
    moved: set[str] = set()
    for _ in range(12):
        view = await game_view(core, actor_ref(player), group_place(room))
        if len(moved) == 2:
            break
        mover = users[int(view.players[view.turn].user_id)]
        await chat.say(mover, room, f"/move {a_legal_play(view, rng)}")
        moved.add(str(mover.id))
    await chat.say(player, room, "/resign match yes")


async def test_four_player_swiss_in_a_group(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    names = ["Anna", "Βασίλης", "张伟", "محمد"]
    players = [fake.user(201 + n, name, f"p{n}_tavli") for n, name in enumerate(names)]
    room = fake.group(-2001, "Tavli club")
    fake.make_owner(room, players[0])
    rng = random.Random(24)

    await chat.say(players[1], room, "/tournament create swiss rounds 2")
    refusal = translate("tournament_admin_only", "en", **context_words("telegram", "en"))
    assert fake.last_bot_message(room).content == refusal
    await chat.say(players[0], room, "/tournament create swiss rounds 2")
    assert fake.last_bot_message(room).content.startswith("Tournament ")
    for n, p in enumerate(players):
        await chat.say(p, room, "/tournament join")
        assert f"({n + 1} player{'s' if n else ''})" in fake.last_bot_message(room).content
    await chat.say(players[0], room, "/tournament start")
    assert "starts with 4 players" in fake.last_bot_message(room).content
    (pairing,) = await until(lambda: [m for m in fake.bot_messages(room) if "Round 1:" in m.content], 20, "pairings")
    assert pairing.content.count("Round 1:") == 2
    mentioned = {e["user"]["id"] for e in pairing.entities if e["type"] == "text_mention"}
    assert mentioned == {p.id for p in players}  # each player pinged once, with his opponent and deadline

    for rnd in (1, 2):
        paired = set()
        for p in players:
            if p.id in paired:
                continue
            view = await game_view(core, actor_ref(p), group_place(room))
            paired |= {int(seat.user_id) for seat in view.players}
            await finish_match(fake, chat, core, room, p, rng)
        await core.tick("telegram", notices=False)  # the round closes; its notice goes out through the outbox
        if rnd == 1:
            await until(lambda: any("Round 2:" in t for t in texts(fake, room)), 20, "round 2's pairings")
    final = await until(lambda: [m for m in fake.bot_messages(room) if "is over. The winner" in m.content], 20,
                        "the final message")  # fmt: skip
    assert final[-1].photo is not None  # the final standings, as a picture with the text
    tables = [m for m in fake.bot_messages(room) if m.photo is not None and "standings" in m.content]
    assert len(tables) == 2  # after round 1 and at the end
    assert all(name in final[-1].content for name in names)
    assert sum("is over. The winner" in t for t in texts(fake, room)) == 1

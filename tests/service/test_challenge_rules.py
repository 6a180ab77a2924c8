"""Challenge fixes (issue 14) through the service on a real Redis: a challenge that ends however it ends writes
one outbox entry (its message is edited from it), a duplicate is refused naming the open one, bots cannot be
challenged, a third user is told whom a challenge is for; ``mygames`` lists running games with whose turn."""

from __future__ import annotations

import asyncio
import json
import random

from bot.commands import intents as i
from bot.commands.executor import execute
from bot.i18n import translate
from bot.service import GameService, Place, PlayerRef, keys
from bot.service.mygames import board_link
from bot.storage import RedisStore
from bot.storage.base import Commit

from .conftest import ALICE, BOB, CAROL, HERE, THERE, FakeClock, make_service
from .helpers import start_game, until_both_moved


async def _ended(store: RedisStore) -> list[tuple[str, str, str]]:
    """Every challenge-ended outbox entry: (challenge id, how it ended, the message key)."""
    out = []
    for stream in keys.outboxes("discord"):
        for _id, fields in await store.client.xrange(stream):
            if fields.get(b"k") == b"challenge":
                msgs = json.loads(fields[b"msgs"])
                out.append((fields[b"id"].decode(), fields[b"end"].decode(), msgs[0][0]))
    return out


async def test_every_end_of_a_challenge_writes_one_outbox_entry(redis_store: RedisStore,
                                                                 redis_service: GameService,
                                                                 clock: FakeClock) -> None:
    accepted = (await redis_service.challenge(ALICE, HERE, BOB)).actions[0].game_id
    assert (await redis_service.accept(BOB, HERE)).ok  # typed, no id
    cancelled = (await redis_service.challenge(CAROL, THERE, BOB)).actions[0].game_id
    assert (await redis_service.cancel(CAROL, THERE)).ok
    declined = (await redis_service.challenge(CAROL, THERE, ALICE)).actions[0].game_id
    assert (await redis_service.decline(ALICE, THERE)).ok
    expired = (await redis_service.challenge(BOB, THERE, CAROL)).actions[0].game_id
    clock.advance(601)
    assert [r.messages[0].key for r in await redis_service.tick()] == ["challenge_expired"]
    assert await _ended(redis_store) == [
        (accepted, "accepted", "challenge_ended_accepted"), (cancelled, "cancelled", "challenge_ended_cancelled"),
        (declined, "declined", "challenge_ended_declined"), (expired, "expired", "challenge_ended_expired")]
    assert await redis_service.tick() == [] and len(await _ended(redis_store)) == 4  # once


async def test_other_challenges_of_players_who_start_a_game_are_superseded(redis_store: RedisStore,
                                                                          redis_service: GameService) -> None:
    to_bob = (await redis_service.challenge(ALICE, HERE, BOB)).actions[0].game_id
    to_carol = (await redis_service.challenge(ALICE, HERE, CAROL)).actions[0].game_id
    from_carol = (await redis_service.challenge(CAROL, HERE, BOB)).actions[0].game_id
    elsewhere = (await redis_service.challenge(ALICE, THERE, CAROL)).actions[0].game_id
    assert (await redis_service.accept(BOB, HERE, to_bob)).ok
    assert sorted(await _ended(redis_store)) == sorted([
        (to_bob, "accepted", "challenge_ended_accepted"), (to_carol, "superseded", "challenge_ended_superseded"),
        (from_carol, "superseded", "challenge_ended_superseded")])
    assert (await redis_service.accept(CAROL, HERE, to_carol)).error_key == "no_challenge"
    assert (await redis_service.accept(CAROL, THERE, elsewhere)).ok  # another channel: still open


async def test_a_duplicate_challenge_is_refused_naming_the_open_one(redis_service: GameService,
                                                                     clock: FakeClock) -> None:
    first = await redis_service.challenge(ALICE, HERE, BOB)
    cid = first.actions[0].game_id
    again = await redis_service.challenge(ALICE, HERE, BOB, length=3)
    assert again.error_key == "challenge_duplicate"
    assert again.messages[0].args["challenge_id"] == cid and again.messages[0].args["opponent"] == "bob"
    assert (await redis_service.challenge(ALICE, THERE, BOB)).ok  # another place is another challenge
    assert (await redis_service.challenge(ALICE, HERE, CAROL)).ok  # another opponent too
    assert (await redis_service.challenge(ALICE, HERE, None)).ok
    assert (await redis_service.challenge(ALICE, HERE, None)).error_key == "challenge_duplicate_open"
    clock.advance(601)  # expired but its timer not yet fired: a new one replaces it
    assert (await redis_service.challenge(ALICE, HERE, BOB)).ok


async def test_the_same_challenge_sent_at_once_from_two_instances_is_made_once(redis_store: RedisStore,
                                                                                clock: FakeClock) -> None:
    one, two = make_service(redis_store, clock), make_service(redis_store, clock)
    answers = await asyncio.gather(*(s.challenge(ALICE, HERE, BOB, idem=f"k{n}")
                                     for n, s in enumerate([one, two, one, two])))
    made = [a for a in answers if a.ok]
    assert len(made) == 1 and all(a.error_key == "challenge_duplicate" for a in answers if not a.ok)
    assert len(await redis_store.client.hgetall(keys.channel_challenges(HERE))) == 1
    assert (await one.cancel(ALICE, HERE)).ok  # the pair is free again
    assert (await two.challenge(ALICE, HERE, BOB)).ok


async def test_a_bot_cannot_be_challenged(redis_service: GameService) -> None:
    robot = PlayerRef("discord", "999", "fevga", bot=True)
    refused = await redis_service.challenge(ALICE, HERE, robot)
    assert refused.error_key == "challenge_bot" and refused.messages[0].args["player"] == "fevga"
    typed = await execute(redis_service, ALICE, HERE, i.Challenge("@fevga"), mentions={"@fevga": robot})
    assert typed.error_key == "challenge_bot"
    assert robot == PlayerRef("discord", "999", "fevga")  # the flag is not part of who the player is


async def test_a_third_user_is_told_whom_the_challenge_is_for(redis_service: GameService) -> None:
    cid = (await redis_service.challenge(ALICE, HERE, BOB)).actions[0].game_id
    for answer in (await redis_service.accept(CAROL, HERE), await redis_service.accept(CAROL, HERE, cid),
                   await redis_service.decline(CAROL, HERE)):
        assert answer.error_key == "challenge_for_other" and answer.messages[0].args["player"] == "bob"
    assert (await redis_service.accept(BOB, HERE)).ok


async def test_mygames_header_agrees_with_how_many_wait_for_you(redis_service: GameService) -> None:
    """Greek "1 περιμένει" / "2 περιμένουν": the count of matches waiting for the player's move agrees in number."""
    one = await start_game(redis_service, ALICE, BOB, HERE)
    two = await start_game(redis_service, ALICE, CAROL, THERE)
    assert one.view is not None and two.view is not None
    to_move = [g.players[g.turn] for g in (one.view, two.view)]
    waiting = {p.user_id: sum(m == p for m in to_move) for p in (ALICE, BOB, CAROL)}
    for player in (ALICE, BOB, CAROL):
        header = (await redis_service.mygames(player)).messages[0]
        assert header.key == "mygames_header" and header.args["yours"] == waiting[player.user_id]
        greek = translate(header.key, "el", **header.args)
        english = translate(header.key, "en", **header.args)
        n = header.args["yours"]
        assert f"({n} {'περιμένει' if n == 1 else 'περιμένουν'} τη δική σου κίνηση)." in greek, greek
        assert f"({n} waiting for your move)." in english, english
    assert translate("mygames_header", "el", player="a", count=3, yours=1).endswith(
        ": 3 (1 περιμένει τη δική σου κίνηση).")
    assert translate("mygames_header", "el", player="a", count=3, yours=2).endswith(
        ": 3 (2 περιμένουν τη δική σου κίνηση).")


async def test_mygames_lists_running_games_with_whose_turn(redis_store: RedisStore,
                                                          redis_service: GameService) -> None:
    assert (await redis_service.mygames(ALICE)).messages[0].key == "mygames_none"
    one = await start_game(redis_service, ALICE, BOB, HERE)
    two = await start_game(redis_service, CAROL, ALICE, THERE)
    ai_room = Place("discord", "guild2", "ai")
    assert (await redis_service.play_ai(ALICE, ai_room)).ok
    assert one.view is not None and two.view is not None
    await redis_store.commit(Commit().put(keys.board_ref(one.view.game_id), b"chan1:5555"))
    listed = await redis_service.mygames(ALICE)
    assert listed.ok and listed.messages[0].key == "mygames_header" and listed.messages[0].args["count"] == 3
    rows = {m.args["game_id"]: m for m in listed.messages[1:]}
    for game in (one.view, two.view):
        alice_turn = game.players[game.turn] == ALICE
        assert rows[game.game_id].key == ("mygames_row_yours" if alice_turn else "mygames_row_theirs")
    assert rows[one.view.game_id].args["where"] == "https://discord.com/channels/guild1/chan1/5555"
    assert rows[one.view.game_id].args["opponent"] == "bob" and rows[two.view.game_id].args["opponent"] == "carol"
    untitled = rows[two.view.game_id]  # no link, no title known: a chat and its id, in the reader's words
    assert untitled.args["spot"] == "chat" and translate(untitled.key, "en", **untitled.args).endswith(
        f"chat {THERE.channel_id}")
    await redis_store.client.hset(keys.chat_titles("discord"), THERE.channel_id, "Backroom")
    titled = {m.args["game_id"]: m for m in (await redis_service.mygames(ALICE)).messages[1:]}
    assert titled[two.view.game_id].args["where"] == "«Backroom»"
    # a match that ends leaves the index in the same commit
    await until_both_moved(redis_service, one, HERE, random.Random(1))
    assert (await redis_service.resign(BOB, HERE)).ok
    assert one.view.game_id not in await redis_store.client.hkeys(keys.player_games("discord", ALICE.user_id))
    assert (await redis_service.mygames(BOB)).messages[0].key == "mygames_none"
    assert (await redis_service.mygames(ALICE)).messages[0].args["count"] == 2


def test_board_links() -> None:
    group = Place("telegram", "-1001234567", "-1001234567")
    assert board_link(group, "-1001234567:42") == "https://t.me/c/1234567/42"
    assert board_link(Place("telegram", "-4567", "-4567"), "-4567:42") == ""  # a basic group has no links
    assert board_link(Place("discord", "dm:7", "99"), "99:3") == "https://discord.com/channels/@me/99/3"
    assert board_link(group, None) == ""


async def test_a_damaged_games_index_never_blocks_a_game(redis_store: RedisStore,
                                                         redis_service: GameService) -> None:
    await redis_store.client.set(keys.player_games("discord", ALICE.user_id), b"not a hash")
    started = await start_game(redis_service, ALICE, BOB, HERE)
    assert started.ok and started.view is not None and started.view.status == "play"
    listed = await redis_service.mygames(ALICE)  # reset (logged), then rebuilt by the next game's commits
    assert listed.ok and listed.messages[0].key == "mygames_none"
    assert (await redis_service.mygames(BOB)).messages[0].args["count"] == 1


async def test_a_challenge_in_a_private_chat_is_refused(redis_store: RedisStore, redis_service: GameService) -> None:
    """Nobody but its owner sees a private chat or a DM, so a challenge made there (named or open) could never be
    accepted: it is refused, saying where challenges are made, and nothing is stored; the AI can be played there."""
    for place in (Place("telegram", "private:1", "1"), Place("discord", "dm:1", "55")):
        actor, other = PlayerRef(place.platform, "1", "Ελένη"), PlayerRef(place.platform, "2", "Bob")
        for opponent in (other, None):
            refused = await redis_service.challenge(actor, place, opponent, kind="portes")
            assert not refused.ok and [m.key for m in refused.messages] == ["challenge_private_place"]
        assert await redis_store.client.hgetall(keys.channel_challenges(place)) == {}
        assert (await redis_service.play_ai(actor, place, "easy")).ok
    assert "a group or a server channel" in translate("challenge_private_place", "en")
    assert "μια ομάδα" in translate("challenge_private_place", "el", shared=translate("word_shared_telegram", "el"))


def test_mygames_says_where_a_game_is_in_the_readers_language() -> None:
    """A game without a board link is placed in words of the reader's language (a private chat, a chat and its
    id), a noted chat title and a link as they are."""
    from bot.service.mygames import where

    def row(place: Place, lang: str, link: str = "", title: str | None = None) -> str:
        return translate("mygames_row_yours", lang, opponent="Bob", score="0-0", length=3,
                         **where(place, link, title))

    private, group = Place("telegram", "private:5", "5"), Place("telegram", "-5", "-5")
    assert row(private, "en").endswith("private chat") and row(private, "el").endswith("ιδιωτική συνομιλία")
    assert row(group, "en").endswith("chat -5") and row(group, "el").endswith("συνομιλία -5")
    assert row(group, "el", title="Club").endswith("«Club»") and row(group, "el", "https://t.me/c/5/1").endswith("/1")

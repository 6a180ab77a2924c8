"""Tournaments through the service, on every store: commands, rounds that start real matches, round close
and next pairing exactly once under two instances, a 16-player Swiss with random results."""

import asyncio
import random

import pytest

from bot.chat import standings_reply
from bot.i18n import translate
from bot.service import GameService, Place, PlayerRef, keys
from bot.service.models import Msg
from bot.service.result_codec import decode_result
from bot.service.tournaments import model
from bot.service.tournaments.standings import standings
from fevga import format_play
from tests.service.conftest import HERE, make_service
from tests.service.helpers import random_play

ADMIN = PlayerRef("discord", "1", "admin")


def players(n: int) -> list[PlayerRef]:
    return [PlayerRef("discord", str(100 + i), f"player{i}") for i in range(n)]


async def open_event(service: GameService, field: list[PlayerRef], place: Place = HERE, **kw) -> str:
    made = await service.tournaments.create(ADMIN, place, is_admin=True, **kw)
    assert made.ok, made.messages
    for p in field:
        joined = await service.tournaments.join(p, place)
        assert joined.ok, joined.messages
    _v, t = await service.tournaments.current(place)
    assert t is not None
    return t.id


async def round_games(service: GameService, tid: str) -> dict[str, str]:
    return (await service.store.read([("hgetall", model.round_games(tid))]))[0]


async def both_move(service: GameService, gid: str, place: Place, rng: random.Random) -> None:
    """Random plays until both players of the match have made one (a resignation is then a loss, not an abort)."""
    for _ in range(10):
        s = (await service.sessions.load(gid, take=False)).session
        assert s is not None
        if {r.player for r in s.game.history if not r.is_pass} == {0, 1}:
            return
        view = (await service.view_of(gid)).view
        assert view is not None
        moved = await service.move(view.players[view.turn], place, format_play(random_play(view, rng)), game_id=gid)
        assert moved.ok, moved.messages
    raise AssertionError("both players never moved")


async def finish_round(service: GameService, tid: str, rng: random.Random) -> None:
    """Every match of the current round ends: a random player resigns the match."""
    _v, t = await service.tournaments.load(tid)
    assert t is not None
    games = await round_games(service, tid)
    for pair in t.pairs:
        if pair.b is None:
            continue
        gid = games[model.slot(t.round, pair.a, pair.b)]
        await both_move(service, gid, t.place, rng)
        loser = t.ref(rng.choice((pair.a, pair.b)))
        gave_up = await service.resign(loser, t.place, whole_match=True, game_id=gid)
        assert gave_up.ok, gave_up.messages


async def test_commands_and_refusals(service):
    alice, bob = players(2)
    assert (await service.tournaments.create(alice, HERE)).error_key == "tournament_admin_only"
    assert (
        await service.tournaments.create(ADMIN, HERE, kind="arena", is_admin=True)
    ).error_key == "tournament_bad_kind"
    assert (await service.tournaments.join(alice, HERE)).error_key == "tournament_none"
    tid = await open_event(service, [alice, bob], rounds=3)
    again = await service.tournaments.create(ADMIN, HERE, is_admin=True)
    assert again.error_key == "tournament_exists"
    assert (await service.tournaments.join(alice, HERE)).error_key == "tournament_already_joined"
    assert (await service.tournaments.leave(bob, HERE)).ok
    assert (await service.tournaments.leave(bob, HERE)).error_key == "tournament_not_joined"
    assert (await service.tournaments.start(alice, HERE)).error_key == "tournament_admin_only"
    _v, t = await service.tournaments.load(tid)
    assert t is not None and [e.id for e in t.players] == [alice.user_id] and t.status == "open"
    assert (await service.tournaments.cancel(ADMIN, HERE, is_admin=True)).ok
    _v, t = await service.tournaments.load(tid)
    assert t is not None and t.status == "cancelled"
    listed = await service.tournaments.history(HERE)
    assert listed.ok and [(m.key, m.args["id"]) for m in listed.messages[1:]] == [("tournaments_row_cancelled", tid)]
    assert (await service.tournaments.create(ADMIN, HERE, is_admin=True)).ok  # the channel is free again


async def test_four_player_swiss_to_the_end(service):
    field = players(4)
    rng = random.Random(4)
    tid = await open_event(service, field, rounds=3)
    started = await service.tournaments.start(ADMIN, HERE, is_admin=True)
    assert started.ok and [m.key for m in started.messages] == ["tournament_started"], started.messages
    (told,) = [decode_result(raw) for raw in await outbox_notices(service.store)]  # round one, through the outbox
    assert told is not None and [m.key for m in told.messages] == ["tournament_pairing", "tournament_pairing"]
    assert len(told.to_notify) == 4 and {p.user_id for p in told.to_notify} == {p.user_id for p in field}
    for rnd in (1, 2, 3):
        _v, t = await service.tournaments.load(tid)
        assert t is not None and t.round == rnd and t.status == "running"
        assert len(await round_games(service, tid)) == 2 * rnd  # this round's two matches were started
        await finish_round(service, tid, rng)
        assert await service.tournaments.advance(tid)
    _v, t = await service.tournaments.load(tid)
    assert t is not None and t.status == "done" and len(t.results) == 6
    assert len({frozenset((r.a, r.b)) for r in t.results}) == 6  # everybody met everybody once
    assert t.winner == standings(t.players, t.results)[0].player
    table = await service.tournaments.standings(HERE, tid)
    assert table.ok and [m.key for m in table.messages] == ["tournament_table_final"] + ["tournament_table_row"] * 4
    bare = await service.tournaments.standings(HERE)  # a bare "tournament" after the end: its final table
    assert bare.ok and bare.messages == table.messages
    assert [m.args["rank"] for m in table.messages[1:]] == [1, 2, 3, 4]
    assert table.messages[1].args["name"] == t.name_of(t.winner)
    for player in field:  # stats: his events here and his titles (written by the event's last commit)
        shown = await service.stats(player, HERE)
        (line,) = [m for m in shown.messages if m.key == "stats_tournaments"]
        assert (line.args["events"], line.args["titles"]) == (1, int(player.user_id == t.winner))
    elsewhere = await service.stats(field[0], Place("discord", "guild2", "chan1"))
    assert not [m for m in elsewhere.messages if m.key == "stats_tournaments"]
    listed = await service.tournaments.history(HERE)
    assert [(m.key, m.args) for m in listed.messages[1:]] == [
        ("tournaments_row_done", {"id": tid, "winner": t.name_of(t.winner)})
    ]


async def test_sixteen_players_five_rounds_random_results(service):
    field = players(16)
    rng = random.Random(16)
    tid = await open_event(service, field, rounds=5)
    assert (await service.tournaments.start(ADMIN, HERE, is_admin=True)).ok
    for _ in range(5):
        await finish_round(service, tid, rng)
        await service.tournaments.advance(tid)
    _v, t = await service.tournaments.load(tid)
    assert t is not None and t.status == "done" and len(t.results) == 40
    assert len({frozenset((r.a, r.b)) for r in t.results}) == 40  # no pairing repeated
    assert all(r.winner in (r.a, r.b) for r in t.results)  # results are the matches' real winners


async def test_eleven_player_knockout(service, monkeypatch):
    field = players(11)
    rng = random.Random(11)
    tid = await open_event(service, field, kind="knockout")
    assert (await service.tournaments.start(ADMIN, HERE, is_admin=True)).ok
    (first,) = [decode_result(raw) for raw in await outbox_notices(service.store)]
    assert first is not None and sum(m.key == "tournament_bye" for m in first.messages) == 5
    said = [m.key for m in first.messages if m.key in ("tournament_pairing", "tournament_bye")]
    assert said == sorted(said, key=lambda k: k == "tournament_bye")  # the matches first, then the byes
    for _ in range(4):
        await finish_round(service, tid, rng)
        await service.tournaments.advance(tid)
    _v, t = await service.tournaments.load(tid)
    assert t is not None and t.status == "done" and t.winner is not None
    lost = {r.a if r.winner == r.b else r.b for r in t.results if r.b is not None}
    assert t.winner not in lost and len(lost) == 10
    table = await service.tournaments.standings(HERE, tid)  # a bracket's table: matches won, no Swiss tie-breaks
    assert [m.key for m in table.messages] == ["tournament_table_final_ko"] + ["tournament_table_row_ko"] * 11
    assert table.messages[1].args["name"] == t.name_of(t.winner) and table.messages[1].args["score"] == 4
    for lang in ("en", "el"):
        text = "\n".join(translate(m.key, lang, **m.args) for m in table.messages)
        assert "Buchholz" not in text and "(0, 0)" not in text, text
    drawn: list[tuple[list[str], int]] = []  # what the picture is asked to draw: its column heads, number columns

    def spy(title: str, heads: list[str], rows: list[object], numbers: int = 3) -> bytes:
        drawn.append((list(heads), numbers))
        return b"png"

    monkeypatch.setattr(standings_reply, "render_standings", spy)
    swiss_like = [Msg(m.key.removesuffix("_ko"), m.args) for m in table.messages]
    assert standings_reply.standings_picture(table.messages, "en") == b"png"
    assert standings_reply.standings_picture(swiss_like, "en") == b"png"
    assert drawn == [(["#", "Player", "Won", "Rounds"], 1), (["#", "Player", "Pts", "BH", "SB", "Rounds"], 3)]


async def test_two_instances_pair_the_next_round_once(any_store, clock):
    one, two = make_service(any_store, clock), make_service(any_store, clock)
    field = players(8)
    rng = random.Random(2)
    tid = await open_event(one, field, rounds=3)
    assert (await one.tournaments.start(ADMIN, HERE, is_admin=True)).ok
    await finish_round(one, tid, rng)
    told = await asyncio.gather(
        one.tournaments.advance(tid), two.tournaments.advance(tid), one.tournaments.advance(tid)
    )
    pairings = [r for results in told for r in results if any(m.key == "tournament_pairing" for m in r.messages)]
    assert len(pairings) == 1  # one of the three closed the round and paired round 2 (others may start matches)
    assert sum(m.key == "tournament_pairing" for m in pairings[0].messages) == 4
    _v, t = await two.tournaments.load(tid)
    assert t is not None and t.round == 2 and len(t.results) == 4
    games = await round_games(one, tid)
    assert len(games) == 8 and len(set(games.values())) == 8  # round 2's four matches, each started once
    told_keys = [[m.key for m in decode_result(raw).messages] for raw in await outbox_notices(any_store)]
    rounds_told = [k for k in told_keys if "tournament_pairing" in k]
    assert len(rounds_told) == 2  # rounds 1 and 2, each in the outbox once (the round's own commit)


async def outbox_notices(store) -> list[bytes]:
    """Every notice entry of the discord outboxes (read through a consumer group of the test's own)."""
    found = []
    for stream in keys.outboxes("discord"):
        await store.ensure_group(stream, "test")
        found += [f[b"result"] if b"result" in f else f.get("result", b"")
                  for _id, f in await store.consume(stream, "test", "me", count=500)
                  if f.get("k", f.get(b"k")) in (b"notice", "notice")]  # fmt: skip
    return found


async def test_start_at_its_time_through_tick(service, clock):
    field = players(2)
    tid = await open_event(service, field, starts_at=clock() + 3600)
    assert await service.tournaments.tick() == []
    clock.advance(3601)
    told = await service.tournaments.tick()
    assert len(told) == 1 and told[0].messages[0].key == "tournament_pairing"
    _v, t = await service.tournaments.load(tid)
    assert t is not None and t.status == "running" and t.round == 1


@pytest.mark.parametrize("bad", [{"rounds": 0}, {"rounds": 99}, {"points": 0}, {"deadline_secs": 60}])
async def test_bad_settings_change_nothing(service, bad):
    made = await service.tournaments.create(ADMIN, HERE, is_admin=True, **bad)
    assert not made.ok and made.error_key.startswith(("tournament_bad", "bad_length"))
    assert (await service.tournaments.current(HERE)) == (0, None)


async def test_counts_in_tournament_texts_agree_in_number(redis_service):
    """Counts agree in number: "1 player", "2 players" (Greek "1 παίκτης", "2 παίκτες"), "1 round", "1 pt",
    "1 played, 1 won": every count in the tournament texts goes through the catalogues' plural entries, in English
    and Greek."""

    def said(msg, lang="en"):
        return translate(msg.key, lang, **msg.args)

    service, rng = redis_service, random.Random(3)
    a, b = players(2)
    made = await service.tournaments.create(ADMIN, HERE, is_admin=True, rounds=1)
    assert ", 1 round, matches to 1 point," in said(made.messages[0])
    assert ", 1 γύρος, αγώνες 1 πόντου," in said(made.messages[0], "el")
    first, second = [(await service.tournaments.join(p, HERE)).messages[0] for p in (a, b)]
    assert said(first) == "player0 joins the tournament (1 player)."
    assert said(first, "el") == "Ο/Η player0 μπαίνει στο τουρνουά (1 παίκτης)."
    assert said(second) == "player1 joins the tournament (2 players)."
    assert said(second, "el") == "Ο/Η player1 μπαίνει στο τουρνουά (2 παίκτες)."
    started = await service.tournaments.start(ADMIN, HERE, is_admin=True)
    assert "starts with 2 players." in said(started.messages[0])
    assert "(2 παίκτες)" in said(started.messages[0], "el")
    _v, t = await service.tournaments.current(HERE)
    assert t is not None
    await finish_round(service, t.id, rng)
    assert await service.tournaments.advance(t.id)
    _v, t = await service.tournaments.load(t.id)
    assert t is not None and t.status == "done"
    rows = (await service.tournaments.standings(HERE, t.id)).messages[1:]
    assert [m.args["score"] for m in rows] == [1, 0]
    assert ": 1 pt (" in said(rows[0]) and ": 0 pts (" in said(rows[1])
    winner = next(p for p in (a, b) if p.user_id == t.winner)
    (line,) = [m for m in (await service.stats(winner, HERE)).messages if m.key == "stats_tournaments"]
    assert said(line).endswith(": 1 played, 1 won.") and said(line, "el").endswith(": 1 παιγμένο, 1 νίκη.")
    assert said(Msg("tournament_full", {"max": 256}), "el") == "Το τουρνουά είναι γεμάτο (256 παίκτες)."
    demo = translate("tournament_demo_start", "en", count=5, rounds=1, points=1)
    assert demo.startswith("A demo Swiss of 5 players (1 round, matches to 1 point)")


async def test_a_knockout_is_announced_without_a_count_of_rounds(service):
    """A knockout's rounds are as many as its entrants make: its announcement names none (no "0 rounds")."""
    made = await service.tournaments.create(ADMIN, HERE, is_admin=True, kind="knockout")
    assert made.ok and made.messages[0].key == "tournament_created_knockout"
    for lang in ("en", "el"):
        text = translate(made.messages[0].key, lang, **made.messages[0].args)
        assert "round" not in text.split("a round")[0] and "γύρ" not in text.split("ο γύρος")[0], text
        assert "knockout" in text or "νοκ άουτ" in text, text


async def test_a_start_in_the_past_is_refused_with_an_example_still_to_come(service, clock):
    """The example start time in the refusal is tomorrow's (a fixed date in the text had itself passed)."""
    refused = await service.tournaments.create(ADMIN, HERE, is_admin=True, starts_at=clock() - 60)
    assert refused.error_key == "tournament_start_past"
    example = refused.messages[0].args["example"]
    from datetime import UTC, datetime

    when = datetime.strptime(example, "%Y-%m-%dT%H:%M").replace(tzinfo=UTC).timestamp()
    assert clock() < when <= clock() + 2 * 86400
    assert f"start {example} (UTC)" in translate("tournament_start_past", "en", example=example)

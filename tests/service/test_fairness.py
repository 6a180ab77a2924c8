"""Ratings nobody can farm (issue 14), through the service on a real Redis: resignations and claims before
both players moved abort, short deadlines are unrated, a claim is one point, no hints in rated games, typed
``resign`` asks first, repeated short matches are flagged then unrated."""

from __future__ import annotations

import random

from bot.chat.buttons import intent_of
from bot.chat.presenter import caption
from bot.commands import intents as i
from bot.commands.executor import execute
from bot.commands.grammar import parse_command
from bot.i18n import translate
from bot.service import GameService, Place, keys
from bot.service.fairness import SHORT_LIMIT
from bot.service.reads import read_one
from bot.storage import RedisStore
from fevga import format_play

from .conftest import ALICE, BOB, HERE, FakeClock
from .helpers import random_play, start_game, until_both_moved


async def _ratings(service: GameService, place: Place = HERE) -> list[tuple[str, str]]:
    top = await service.top(place, global_=True)
    return [(m.args["name"], m.args["rating"]) for m in top.messages if m.key == "top_row"]


async def test_resigning_before_both_moved_aborts_unrated(redis_service: GameService) -> None:
    started = await start_game(redis_service, ALICE, BOB, HERE)
    assert started.view is not None
    resigner = started.view.players[started.view.turn ^ 1]  # the one who has not moved yet
    done = await redis_service.resign(resigner, HERE)
    assert done.ok and done.view is not None and done.view.status == "aborted"
    assert done.messages[0].key == "resign_aborted" and done.view.score == (0, 0)
    assert await _ratings(redis_service) == []
    stats = await redis_service.stats(BOB, HERE)
    assert [m.key for m in stats.messages] == ["stats_none_global"]  # said once


async def test_forty_instant_resignations_do_not_move_a_rating(redis_service: GameService) -> None:
    for n in range(40):
        await start_game(redis_service, ALICE, BOB, HERE)
        resigned = await redis_service.resign(BOB if n % 2 else ALICE, HERE)
        assert resigned.ok and resigned.view is not None and resigned.view.status == "aborted"
    assert await _ratings(redis_service) == []
    assert (await redis_service.top(HERE)).messages[0].key == "top_empty"


async def test_a_deadline_under_the_minimum_makes_the_match_unrated(redis_service: GameService) -> None:
    changed = await redis_service.set_setting(ALICE, HERE, "deadline_hours", "0.05", is_admin=True)
    assert [m.key for m in changed.messages] == ["setting_changed_duration", "unrated_deadline"]
    made = await redis_service.challenge(ALICE, HERE, BOB)
    assert [m.key for m in made.messages] == ["challenge_sent", "unrated_deadline"]
    started = await redis_service.accept(BOB, HERE)
    assert started.ok and "unrated_deadline" in [m.key for m in started.messages]
    assert started.view is not None and not started.view.rated
    assert caption(started.view, "en").startswith("alice – bob  · unrated")  # said on the board too
    moved = await until_both_moved(redis_service, started, HERE, random.Random(1))
    assert (await redis_service.hint(ALICE if moved.view and moved.view.turn == 0 else BOB, HERE)).ok  # unrated
    early = await redis_service.hint(BOB if moved.view and moved.view.turn == 0 else ALICE, HERE)
    assert early.error_key == "not_your_turn"  # asked while the other plays (it said "already played")
    assert (await redis_service.resign(ALICE, HERE)).view.status == "done"  # type: ignore[union-attr]
    assert await _ratings(redis_service) == []
    # an hour is enough again
    again = await redis_service.set_setting(ALICE, HERE, "deadline_hours", "1", is_admin=True)
    assert [m.key for m in again.messages] == ["setting_changed_duration"]
    assert [m.key for m in (await redis_service.challenge(ALICE, HERE, BOB)).messages] == ["challenge_sent"]


async def test_a_claim_scores_a_single_point_never_a_mars(redis_service: GameService, clock: FakeClock) -> None:
    started = await until_both_moved(redis_service, await start_game(redis_service, ALICE, BOB, HERE), HERE,
                                     random.Random(2))
    view = started.view
    assert view is not None
    waiting = view.players[view.turn ^ 1]
    clock.advance(86400 + 1)
    await redis_service.tick()
    claimed = await redis_service.claim(waiting, HERE)
    assert claimed.ok and claimed.view is not None and claimed.view.status == "done"
    assert claimed.view.points == 1 and not claimed.view.mars  # the loser had borne off none: not a mars
    assert claimed.view.score[view.turn ^ 1] == 1
    stats = (await redis_service.stats(waiting, HERE)).messages[0]
    assert stats.args["wins"] == 1 and stats.args["points"] == 1 and stats.args["mars"] == 0
    record = (await redis_service.record(view.game_id)).messages[0].args["record"]["games"][0]
    assert record["outcome"] == {"winner": view.turn ^ 1, "points": 1, "mars": False, "resigned": True}
    assert (await redis_service.board(waiting, HERE)).view.points == 1  # type: ignore[union-attr]  # reloaded


async def test_a_claim_before_both_moved_aborts(redis_service: GameService, clock: FakeClock) -> None:
    started = await start_game(redis_service, ALICE, BOB, HERE)
    assert started.view is not None
    waiting = started.view.players[started.view.turn ^ 1]
    clock.advance(86400 + 1)
    await redis_service.tick()
    claimed = await redis_service.claim(waiting, HERE)
    assert claimed.ok and claimed.view is not None and claimed.view.status == "aborted"
    assert claimed.messages[0].key == "claim_aborted" and await _ratings(redis_service) == []


async def test_hint_is_refused_in_rated_games_between_people(redis_service: GameService) -> None:
    started = await start_game(redis_service, ALICE, BOB, HERE)
    assert started.view is not None
    mover = started.view.players[started.view.turn]
    refused = await redis_service.hint(mover, HERE)
    assert refused.error_key == "hint_rated" and not refused.ok
    waiting = started.view.players[1 - started.view.turn]  # the other player: not his turn (not "already played")
    assert (await redis_service.hint(waiting, HERE)).error_key == "not_your_turn"
    ai = await redis_service.play_ai(ALICE, Place("discord", "guild1", "ai-room"))
    assert ai.ok and ai.view is not None
    hint = await redis_service.hint(ALICE, Place("discord", "guild1", "ai-room"))
    assert hint.ok and hint.messages and all(m.key == "hint_line" for m in hint.messages)


async def test_typed_resign_and_telegram_menu_resign_ask_first(redis_service: GameService) -> None:
    started = await until_both_moved(redis_service, await start_game(redis_service, ALICE, BOB, HERE), HERE,
                                     random.Random(3))
    assert started.view is not None
    for line in ("resign", "/resign", "/resign@fevga_bot"):
        intent = parse_command(line)
        assert isinstance(intent, i.ResignPrompt), line
        asked = await execute(redis_service, ALICE, HERE, intent)
        assert asked.ok and [m.key for m in asked.messages] == ["resign_confirm_prompt", "resign_confirm_how"]
        assert [a.kind for a in asked.actions] == ["resign_confirm"]
    assert (await redis_service.board(ALICE, HERE)).view.status == "play"  # type: ignore[union-attr]
    match = await execute(redis_service, ALICE, HERE, parse_command("resign match"))
    assert match.messages[0].key == "resign_match_prompt"
    assert [a.kind for a in match.actions] == ["resign_match_confirm"]
    done = await execute(redis_service, ALICE, HERE, parse_command("resign yes"))
    assert done.ok and done.view is not None and done.view.status == "done"


async def test_repeated_short_matches_are_flagged_with_the_count(redis_service: GameService,
                                                                clock: FakeClock) -> None:
    ratings: list[list[tuple[str, str]]] = []
    for n in range(SHORT_LIMIT + 1):
        started = await until_both_moved(redis_service, await start_game(redis_service, ALICE, BOB, HERE), HERE,
                                         random.Random(10 + n))
        done = await redis_service.resign(ALICE, HERE)
        assert done.ok and done.view is not None and done.view.status == "done"
        ratings.append(await _ratings(redis_service))
        clock.advance(600)
        flagged = [m for m in (await redis_service.stats(BOB, HERE)).messages if m.key == "stats_short_flag"]
        if n + 1 < SHORT_LIMIT:
            assert flagged == [] and "match_unrated_repeated" not in [m.key for m in done.messages]
        else:
            assert len(flagged) == 1 and flagged[0].args["count"] == n + 1 and flagged[0].args["opponent"] == "alice"
            said = translate("stats_short_flag", "en", **flagged[0].args)  # the unrated ones are not called rated
            assert f"{n + 1} short matches" in said and f"{min(n + 1, SHORT_LIMIT)} of them rated" in said, said
        assert started.ok
    assert "match_unrated_repeated" in [m.key for m in done.messages]  # the 4th short match is not rated
    assert ratings[-1] == ratings[-2] and ratings[-2] != ratings[-3]
    clock.advance(86400)  # a day later the flag is gone
    assert "stats_short_flag" not in [m.key for m in (await redis_service.stats(BOB, HERE)).messages]


async def test_a_long_match_is_not_short(redis_service: GameService, clock: FakeClock) -> None:
    rng = random.Random(30)
    for _ in range(SHORT_LIMIT + 1):
        result = await start_game(redis_service, ALICE, BOB, HERE)
        for _turn in range(30):  # well past the short-match bound, then a resignation
            view = result.view
            assert view is not None
            result = await redis_service.move(view.players[view.turn], HERE, format_play(random_play(view, rng)))
            assert result.ok
        assert (await redis_service.resign(ALICE, HERE)).ok
    stats = (await redis_service.stats(BOB, HERE)).messages
    assert "stats_short_flag" not in [m.key for m in stats] and stats[0].args["games"] == SHORT_LIMIT + 1


async def test_the_short_list_lives_in_the_players_slot(redis_store: RedisStore, redis_service: GameService) -> None:
    await until_both_moved(redis_service, await start_game(redis_service, ALICE, BOB, HERE), HERE, random.Random(4))
    assert (await redis_service.resign(BOB, HERE)).ok
    raw = await read_one(redis_store, lambda r: r.get(keys.player_short("discord", ALICE.user_id)))
    assert raw is not None and b'"200"' in raw and keys.player_short("discord", "1").startswith("fevga:{u:discord:1}")


async def test_a_damaged_short_list_never_blocks_a_match_end(redis_store: RedisStore,
                                                             redis_service: GameService) -> None:
    await redis_store.client.hset(keys.player_short("discord", ALICE.user_id), "x", "y")  # wrong type
    await redis_store.client.set(keys.player_short("discord", BOB.user_id), b"not versioned json")
    await until_both_moved(redis_service, await start_game(redis_service, ALICE, BOB, HERE), HERE, random.Random(8))
    done = await redis_service.resign(ALICE, HERE)
    assert done.ok and done.view is not None and done.view.status == "done"
    assert [name for name, _ in await _ratings(redis_service)] == ["bob", "alice"]  # rated all the same
    await redis_store.client.delete(keys.player_short("discord", ALICE.user_id))
    await until_both_moved(redis_service, await start_game(redis_service, ALICE, BOB, HERE), HERE, random.Random(9))
    assert (await redis_service.resign(ALICE, HERE)).ok
    raw = await read_one(redis_store, lambda r: r.get(keys.player_short("discord", BOB.user_id)))
    assert raw is not None and raw.startswith(b"1:")  # the damaged list was replaced


async def test_resigning_a_match_says_the_match_is_won_and_a_second_press_says_it_is_over(
        redis_service: GameService) -> None:
    """``resign match`` in a 7-point match: the prompt's button gives up the whole match (typed works too), the
    end says the match is won though the score is under its length, the board's caption says so too, and the
    "Yes, resign" button of an earlier prompt pressed afterwards answers that the game is over."""
    started = await until_both_moved(redis_service, await start_game(redis_service, ALICE, BOB, HERE, length=7),
                                     HERE, random.Random(5))
    assert started.view is not None
    asked = await execute(redis_service, ALICE, HERE, parse_command("resign"))
    button = asked.actions[0]
    match = await execute(redis_service, ALICE, HERE, parse_command("resign match"))
    assert [m.key for m in match.messages] == ["resign_match_prompt", "resign_confirm_how"]
    assert [a.kind for a in match.actions] == ["resign_match_confirm"]  # its own button (a privacy-mode group
    # passes no typed "resign match yes" to the bot)
    pressed = match.actions[0]
    intent = intent_of(pressed.kind, pressed.game_id, pressed.version)
    assert isinstance(intent, i.Resign) and intent.whole_match
    done = await execute(redis_service, ALICE, HERE, intent)
    keys_said = [m.key for m in done.messages]
    assert done.ok and "resigned_match" in keys_said and "match_won_early" in keys_said, keys_said
    view = done.view
    assert view is not None and view.status == "done" and view.match_winner is not None
    assert view.score[view.match_winner] < 7 and view.players[view.match_winner].same(BOB)
    assert caption(view, "en").endswith("bob wins the match") and "τον αγώνα" in caption(view, "el")
    again = await redis_service.resign(ALICE, HERE, game_id=button.game_id, version=button.version)
    assert not again.ok and again.error_key == "game_over"


async def test_the_next_games_starter_is_told_once(redis_service: GameService) -> None:
    """A game of a match resigned by the player not to move: his opponent wins it and starts the next game; the
    answer tells him once (he was named twice, as the winner and as the starter: two mentions on Discord)."""
    started = await until_both_moved(redis_service, await start_game(redis_service, ALICE, BOB, HERE, length=3),
                                     HERE, random.Random(7))
    assert started.view is not None
    waiting = started.view.players[1 - started.view.turn]
    done = await redis_service.resign(waiting, HERE)
    assert done.ok and done.view is not None and done.view.status == "play" and done.view.game_no == 2
    assert len(done.to_notify) == 1 and not done.to_notify[0].same(waiting)

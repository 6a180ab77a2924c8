"""The ``dice`` command through the grammar, the executor and the service, on a real redis-server."""

from __future__ import annotations

import random
from typing import Any

from bot.commands.executor import execute
from bot.commands.grammar import parse_command
from bot.commands.intents import CommandError, Dice, Intent
from bot.i18n import translate
from bot.service import GameService
from bot.service.dice_stats import MIN_ROLLS, ROLLS, read_roll
from bot.storage import RedisStore
from fevga import verify
from tests.service.conftest import ALICE, BOB, CAROL, HERE
from tests.service.helpers import play_out, start_game


def _parsed(text: str) -> Intent:
    """The intent of a typed line (a CommandError fails the test)."""
    intent = parse_command(text)
    assert isinstance(intent, Intent), intent
    return intent


async def _finished_match(service: GameService, seed: int) -> str:
    started = await start_game(service, ALICE, BOB, HERE)
    assert started.view is not None
    done, _turns = await play_out(service, started, HERE, random.Random(seed))
    assert done.view is not None and done.view.status != "play"
    return started.view.game_id


def _hand_counts(record: dict[str, Any], seat: int) -> dict[tuple[int, int], int]:
    """Count a seat's rolls straight from the record's turns (the starter moves first, turns alternate)."""
    game = record["game"]
    opening = game["opening"][-1]
    starter = game["first"] if game["first"] is not None else (0 if opening[0] > opening[1] else 1)
    counts = dict.fromkeys(ROLLS, 0)
    for index, turn in enumerate(game["turns"]):
        if (starter + index) % 2 == seat:
            roll = read_roll(turn.split(":")[0])
            assert roll is not None
            counts[roll] += 1
    return counts


async def test_dice_of_a_player_over_his_finished_matches(redis_service: GameService) -> None:
    assert (await redis_service.dice(HERE, who=ALICE)).messages[0].key == "dice_none"
    games = [await _finished_match(redis_service, seed) for seed in (1, 2)]
    expected = dict.fromkeys(ROLLS, 0)
    for gid in games:
        record = (await redis_service.record(gid)).messages[0].args["record"]["games"][0]
        seat = [p[1] for p in record["players"]].index(ALICE.user_id)
        for roll, n in _hand_counts(record, seat).items():
            expected[roll] += n
    result = await execute(redis_service, ALICE, HERE, _parsed("dice"))
    assert result.ok
    summary, rows, judged = result.messages
    assert summary.key == "dice_summary" and summary.args["rolls"] == sum(expected.values()) > 0
    assert summary.args["games"] == 2
    assert summary.args["doubles"] == sum(n for (hi, lo), n in expected.items() if hi == lo)
    assert f"66:{expected[(6, 6)]}/" in rows.args["rows"] and f"21:{expected[(2, 1)]}/" in rows.args["rows"]
    if summary.args["rolls"] >= MIN_ROLLS:
        assert judged.key.startswith("dice_verdict_") and 0 <= judged.args["p"] <= 1
    else:  # too few rolls for the chi-square test to mean anything
        assert judged.key == "dice_too_few" and judged.args["needed"] == MIN_ROLLS
    for lang in ("en", "el"):
        text = translate(summary.key, lang, **summary.args)
        assert str(summary.args["rolls"]) in text and "{" not in text
    # someone else's, by mention; CAROL played nothing
    other = await execute(redis_service, ALICE, HERE, _parsed("dice @carol"), mentions={"@carol": CAROL})
    assert other.ok and other.messages[0].key == "dice_none" and other.messages[0].args["player"] == "carol"


async def test_dice_of_one_short_match_gives_no_verdict_and_says_1_game(redis_service: GameService) -> None:
    """One finished match of one game: far fewer rolls than a chi-square verdict needs (MIN_ROLLS), so the reply
    keeps the counts and says how many rolls it takes, with no p-value; "in 1 game", not "in 1 games"."""
    gid = await _finished_match(redis_service, 1)
    result = await execute(redis_service, ALICE, HERE, _parsed("dice"))
    assert result.ok and [m.key for m in result.messages] == ["dice_summary", "dice_rolls", "dice_too_few"]
    summary, rows, too_few = result.messages
    rolls = summary.args["rolls"]
    assert 0 < rolls < MIN_ROLLS and summary.args["games"] == 1 and rows.args["rows"].count(":") == 21
    assert too_few.args == {"rolls": rolls, "needed": MIN_ROLLS, "expected": 5}
    english = [translate(m.key, "en", **m.args) for m in result.messages]
    assert f"alice: {rolls} rolls in 1 game;" in english[0]
    assert str(MIN_ROLLS) in english[2] and "p =" not in english[2] and "Chi-square" not in english[2]
    greek = [translate(m.key, "el", **m.args) for m in result.messages]
    assert f"{rolls} ζαριές σε 1 παρτίδα·" in greek[0] and str(MIN_ROLLS) in greek[2] and "p =" not in greek[2]
    match = await execute(redis_service, BOB, HERE, _parsed(f"dice {gid}"))
    assert translate(match.messages[0].key, "en", **match.messages[0].args) == f"Dice of match {gid} (1 game):"
    assert translate(match.messages[0].key, "el", **match.messages[0].args).endswith("(1 παρτίδα):")
    assert [m.key for m in match.messages].count("dice_too_few") == 2


async def test_dice_of_one_match_shows_its_commitment_and_seed(redis_service: GameService) -> None:
    gid = await _finished_match(redis_service, 3)
    result = await execute(redis_service, BOB, HERE, _parsed(f"dice {gid}"))
    assert result.ok and result.messages[0].key == "dice_game_header"
    assert [m.key for m in result.messages].count("dice_summary") == 2
    seeded = [m for m in result.messages if m.key == "dice_game_seed"]
    assert len(seeded) == 1 and result.messages[-1].key == "dice_check_how"
    record = (await redis_service.record(gid)).messages[0].args["record"]["games"][0]
    game = record["game"]
    rolls = [tuple(int(c) for c in o) for o in game["opening"]] + [tuple(int(c) for c in t.split(":")[0])
                                                                    for t in game["turns"]]
    args = seeded[0].args
    assert verify(args["seed"], args["commitment"], rolls)  # the shown seed and commitment check every roll


async def test_a_running_match_keeps_its_seed_hidden(redis_service: GameService) -> None:
    started = await start_game(redis_service, ALICE, BOB, HERE)
    assert started.view is not None
    result = await redis_service.dice(HERE, game_id=started.view.game_id)
    assert result.ok
    hidden = [m for m in result.messages if m.key == "dice_game_hidden"]
    assert len(hidden) == 1 and len(hidden[0].args["commitment"]) == 64
    assert not any(m.key == "dice_game_seed" for m in result.messages)


async def test_bad_dice_input_is_refused_clearly(redis_store: RedisStore, redis_service: GameService) -> None:
    before = sorted(await redis_store.client.keys("*"))
    unknown = await execute(redis_service, ALICE, HERE, _parsed("dice nobody"))
    assert not unknown.ok and unknown.error_key == "dice_unknown" and unknown.messages[0].args["name"] == "nobody"
    missing = await execute(redis_service, ALICE, HERE, _parsed("dice Zzzzzzzz"))
    assert not missing.ok and missing.error_key == "no_game"
    too_many = parse_command("dice a b")
    assert isinstance(too_many, CommandError) and too_many.key == "cmd_too_many_words"
    assert parse_command("ζάρια") == Dice(None)
    assert sorted(await redis_store.client.keys("*")) == before  # nothing written


async def test_dice_and_h2h_on_every_store(service: GameService) -> None:
    """The finished-matches index and the records live in other slots than the player: one batch reads them on a
    single Redis, in memory and on a Redis Cluster alike."""
    gid = await _finished_match(service, 4)
    mine = await service.dice(HERE, who=ALICE)
    theirs = await service.dice(HERE, who=BOB)
    assert mine.ok and mine.messages[0].key == "dice_summary" and theirs.messages[0].key == "dice_summary"
    record = (await service.record(gid)).messages[0].args["record"]["games"][0]
    assert mine.messages[0].args["rolls"] + theirs.messages[0].args["rolls"] == len(record["game"]["turns"])
    h2h = await service.stats(ALICE, HERE, versus=BOB)
    assert h2h.ok and h2h.messages[0].key == "h2h" and h2h.messages[0].args["matches"] == 1

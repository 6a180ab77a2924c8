"""Head-to-head (``stats @a vs @b``, ``h2h``) through the grammar, the executor and the service on a real Redis."""

from __future__ import annotations

import random
from typing import Any

from bot.commands.executor import execute
from bot.commands.grammar import parse_command
from bot.commands.intents import CommandError, Intent, Stats
from bot.i18n import translate
from bot.service import GameService, Place, PlayerRef
from tests.service.conftest import ALICE, BOB, CAROL, HERE, THERE
from tests.service.helpers import play_out, start_game

MENTIONS = {"@alice": ALICE, "@bob": BOB, "@carol": CAROL}


def _parsed(text: str) -> Intent:
    intent = parse_command(text)
    assert isinstance(intent, Intent), intent
    return intent


async def _match(service: GameService, a: PlayerRef, b: PlayerRef, place: Place, length: int, seed: int) -> str:
    started = await start_game(service, a, b, place, length=length)
    assert started.view is not None
    await play_out(service, started, place, random.Random(seed))
    return started.view.game_id


async def test_head_to_head_counts_what_the_records_say(redis_service: GameService) -> None:
    assert (await execute(redis_service, ALICE, HERE, _parsed("h2h @bob"), mentions=MENTIONS)).messages[0].key \
        == "h2h_none"
    ids = [await _match(redis_service, ALICE, BOB, HERE, 3, 1), await _match(redis_service, BOB, ALICE, THERE, 1, 2),
           await _match(redis_service, ALICE, BOB, HERE, 1, 3)]
    await _match(redis_service, ALICE, CAROL, HERE, 1, 4)  # another opponent: not counted
    want: dict[str, list[int]] = {"matches": [0, 0], "games": [0, 0], "points": [0, 0], "mars": [0, 0]}
    winners = {}
    for gid in ids:
        games: list[dict[str, Any]] = (await redis_service.record(gid)).messages[0].args["record"]["games"]
        score = [0, 0]
        for rec in games:
            alice = [p[1] for p in rec["players"]].index(ALICE.user_id)
            side = 0 if rec["outcome"]["winner"] == alice else 1
            want["games"][side] += 1
            want["points"][side] += rec["outcome"]["points"]
            want["mars"][side] += int(bool(rec["outcome"]["mars"]) and not rec["outcome"]["resigned"])
            score[side] += rec["outcome"]["points"]
        winner = 0 if score[0] > score[1] else 1
        want["matches"][winner] += 1
        winners[gid] = ("alice", "bob")[winner]
    assert want["games"][0] + want["games"][1] >= 4  # the 3-point match had at least two games
    for text in ("stats @alice vs @bob", "h2h @alice @bob", "h2h @bob", "stats vs @bob"):
        result = await execute(redis_service, ALICE, HERE, _parsed(text), mentions=MENTIONS)
        assert result.ok, text
        head, *rows = result.messages
        assert head.key == "h2h" and head.args["matches"] == 3 and (head.args["a"], head.args["b"]) == ("alice", "bob")
        for key in want:
            assert [head.args[f"a_{key}"], head.args[f"b_{key}"]] == want[key], (text, key)
        assert [r.args["game_id"] for r in rows] == ids[::-1]  # newest first
        assert [r.args["winner"] for r in rows] == [winners[g] for g in ids[::-1]]
        for row in rows:  # "bob won 3-1": the winner's points first, whoever asks
            won, lost = (int(x) for x in row.args["score"].split("-"))
            assert won > lost, row.args
        assert "{" not in translate(head.key, "el", **head.args)
    flipped = await execute(redis_service, BOB, HERE, _parsed("stats @bob vs @alice"), mentions=MENTIONS)
    assert [r.args["score"] for r in flipped.messages[1:]] == [r.args["score"] for r in rows]  # the same rows
    assert [flipped.messages[0].args["a_points"], flipped.messages[0].args["b_points"]] == want["points"][::-1]


async def test_head_to_head_shows_at_most_five_results(redis_service: GameService) -> None:
    for seed in range(6):
        await _match(redis_service, ALICE, BOB, HERE, 1, seed)
    result = await redis_service.stats(ALICE, HERE, versus=BOB)
    assert result.messages[0].args["matches"] == 6 and len(result.messages) == 1 + 5


async def test_bad_head_to_head_input(redis_service: GameService) -> None:
    assert parse_command("stats @a vs @b") == Stats("@a", "@b")
    assert parse_command("h2h @b") == Stats(None, "@b")
    for text, key in (("h2h", "cmd_h2h_who"), ("h2h a b c", "cmd_too_many_words"),
                      ("stats a b", "cmd_too_many_words")):
        error = parse_command(text)
        assert isinstance(error, CommandError) and error.key == key, text
    unknown = await execute(redis_service, ALICE, HERE, _parsed("h2h @nobody"), mentions=MENTIONS)
    assert not unknown.ok and unknown.error_key == "cmd_unknown_player"
    assert unknown.messages[0].args["name"] == "@nobody"
    same = await execute(redis_service, ALICE, HERE, _parsed("h2h @alice"), mentions=MENTIONS)
    assert not same.ok and same.error_key == "h2h_self"
    plain = await execute(redis_service, ALICE, HERE, _parsed("stats @bob"), mentions=MENTIONS)
    assert plain.ok and plain.messages[0].key in ("stats", "stats_none", "stats_none_global")  # plain stats


def test_a_drawn_game_counts_for_neither_and_both_see_the_same_totals() -> None:
    """A tavli match with a drawn Plakoto game (outcome winner None): games 2-1 and one draw, from either side
    (the draw was counted as the second player's win)."""
    from bot.service.head_to_head import head_to_head

    players = [[ALICE.platform, ALICE.user_id], [BOB.platform, BOB.user_id]]
    won = [(0, 1), (None, 0), (1, 1), (0, 2)]  # Portes to alice, Plakoto drawn, Fevga to bob, Portes to alice
    records = [{"game_id": "m1", "game_no": n + 1, "players": players, "length": 5, "status": "done",
                "outcome": {"winner": w, "points": p, "mars": p == 2, "resigned": False}}
               for n, (w, p) in enumerate(won)][::-1]
    alice, bob = head_to_head(records, ALICE, BOB), head_to_head(records, BOB, ALICE)
    assert (alice["games"], alice["points"], alice["draws"]) == ([2, 1], [3, 1], 1)
    assert (bob["games"], bob["points"], bob["draws"]) == ([1, 2], [1, 3], 1)
    assert alice["results"][0]["score"] == [3, 1] and alice["matches"] == [1, 0] and bob["matches"] == [0, 1]

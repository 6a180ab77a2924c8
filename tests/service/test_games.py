"""Full games through the service, on Redis and on the in-memory store."""

from __future__ import annotations

import random

from bot.i18n import translate
from bot.service import GameService, Place
from bot.service.models import Msg, Result
from fevga import Game, Position, format_play, game_from_dict, legal_plays, verify
from fevga import step_options as build

from .conftest import ALICE, BOB, CAROL, HERE, THERE, FakeClock
from .helpers import mover_position, play_out, random_play, start_game, until_both_moved


async def test_full_match_to_three_points(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE, length=3)
    assert started.view is not None
    assert started.messages[0].key == "game_started"
    assert len(started.view.commitment) == 64
    assert started.to_notify == [started.view.players[started.view.turn]]
    shown: list[Msg] = []
    final, turns = await play_out(service, started, HERE, random.Random(1), messages=shown)
    view = final.view
    assert view is not None and view.status == "done"
    assert max(view.score) >= 3 and view.match_winner == view.score.index(max(view.score))
    keys = [m.key for m in final.messages]
    assert "match_won" in keys
    assert turns > 30
    assert [a.kind for a in final.actions] == ["rematch"]
    # the record: every game's rolls check against its revealed seed and replays exactly
    record = (await service.record(view.game_id)).messages[0].args["record"]
    games = record["games"]
    assert len(games) == view.game_no >= 2
    points = [0, 0]
    for n, rec in enumerate(games):
        data = rec["game"]
        game = game_from_dict(data, replay=True)
        assert game.is_over() and game.outcome is not None
        rolls = [[int(r[0]), int(r[1])] for r in data["opening"]] + [[int(t[0]), int(t[1])] for t in data["turns"]]
        assert verify(data["dice"]["seed"], data["dice"]["commitment"], rolls)
        if n:
            previous = games[n - 1]["outcome"]["winner"]
            assert data["first"] == previous  # the previous winner starts
        points[rec["outcome"]["winner"]] += rec["outcome"]["points"]
    assert tuple(points) == view.score
    # every forced pass in the records was announced, and every play too
    passes = sum(1 for rec in games for t in rec["game"]["turns"] if t.endswith(":pass"))
    assert sum(1 for m in shown if m.key == "forced_pass") == passes
    plays = sum(1 for rec in games for t in rec["game"]["turns"] if not t.endswith(":pass"))
    assert sum(1 for m in shown if m.key == "played") == plays == turns
    assert sum(1 for m in shown if m.key in ("game_won", "game_won_mars")) == len(games)
    # the channel is free again: both may start a new game here
    assert (await service.challenge(ALICE, HERE, BOB)).ok


async def test_moves_in_any_step_order_and_greek(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    view = started.view
    assert view is not None
    pos = mover_position(view)
    assert view.dice is not None
    play = legal_plays(pos, view.dice)[0]
    greek = " ".join(f"{'αβγδεζηθικλμνξοπρστυφχψω'[a - 1]}/{'off' if b == 25 else b}" for a, b in reversed(play.steps))
    mover = view.players[view.turn]
    done = await service.move(mover, HERE, greek)
    assert done.ok, done.messages
    assert done.view is not None and done.view.version == view.version + 1
    assert done.messages[0].key == "played"


async def test_illegal_and_malformed_plays_change_nothing(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    view = started.view
    assert view is not None
    mover = view.players[view.turn]
    for text, key in (("hello", "bad_token"), ("5/3", "backwards"), ("30/31", "bad_point"), ("", "empty_play")):
        bad = await service.move(mover, HERE, text)
        assert not bad.ok and bad.error_key == key, (text, bad.messages)
    again = await service.board(mover, HERE)
    assert again.view is not None and again.view.version == view.version
    assert again.view.position_id == view.position_id


async def test_step_builder_undo_and_confirm(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    view = started.view
    assert view is not None and view.legal_from
    mover = view.players[view.turn]
    steps = [a for a in started.actions if a.kind == "step"]
    assert steps and all(a.version == view.version for a in steps)
    first = steps[0]
    r = await service.step(mover, HERE, view.game_id, view.version, first.payload["from_point"], first.payload["die"])
    assert r.ok and r.view is not None and len(r.view.pending) == 1
    undone = await service.undo(mover, HERE)
    assert undone.ok and undone.view is not None and undone.view.pending == ()
    # the same button again is stale now (the version moved on)
    stale = await service.step(mover, HERE, view.game_id, view.version, first.payload["from_point"],
                               first.payload["die"])
    assert stale.error_key == "stale_action"
    assert (await service.confirm(mover, HERE)).error_key == "play_incomplete"
    # a step that fits no legal play is refused
    bad = await service.step(mover, HERE, view.game_id, undone.view.version, 24, 6)
    assert bad.error_key in ("bad_step",)
    current: Result = undone
    while not (current.view and current.view.pending_complete):
        assert current.view is not None
        point, dice = sorted(current.view.legal_from.items())[0]
        current = await service.step(mover, HERE, view.game_id, current.view.version, point, dice[0])
        assert current.ok, current.messages
    assert any(a.kind == "confirm" for a in current.actions)
    done = await service.confirm(mover, HERE)
    assert done.ok and done.view is not None
    assert done.view.turn != view.turn or done.messages[-1].key == "forced_pass"


async def test_game_against_the_ai_and_rematch(service: GameService) -> None:
    started = await service.play_ai(ALICE, HERE, level="easy", length=1)
    assert started.ok and started.view is not None
    assert started.view.turn == 0  # the AI moved already if it started
    final, _ = await play_out(service, started, HERE, random.Random(3))
    assert final.view is not None and final.view.status == "done"
    assert any(m.key == "ai_played" for m in final.messages) or final.view.match_winner == 0
    again = await service.rematch(ALICE, HERE)
    assert again.ok and again.view is not None and again.view.players[1].platform == "ai"
    # AI games are unrated
    assert (await service.top(HERE)).messages[0].key == "top_empty"


async def test_rematch_challenges_the_same_opponent(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    assert started.view is not None
    resigned = await service.resign(BOB, HERE)
    assert resigned.ok
    again = await service.rematch(ALICE, HERE)
    assert again.ok and again.messages[0].key == "challenge_sent" and again.to_notify == [BOB]
    assert (await service.accept(BOB, HERE)).ok


async def test_both_pressing_rematch_starts_one_game(service: GameService) -> None:
    """Crossed rematches: the second player's Rematch accepts the first's (it made a second challenge that
    stayed open, with live buttons, after the game began)."""
    assert (await start_game(service, ALICE, BOB, HERE)).ok
    assert (await service.resign(BOB, HERE)).ok
    first = await service.rematch(ALICE, HERE)
    assert first.ok and first.messages[0].key == "challenge_sent"
    second = await service.rematch(BOB, HERE)
    assert second.ok and second.view is not None and second.view.status == "play"  # the game began
    assert {p.user_id for p in second.view.players} == {ALICE.user_id, BOB.user_id}
    assert (await service.accept(ALICE, HERE)).error_key is not None  # nothing else is left open


async def test_resign_gives_mars_points_and_rates(service: GameService) -> None:
    started = await until_both_moved(service, await start_game(service, ALICE, BOB, HERE), HERE, random.Random(5))
    done = await service.resign(ALICE, HERE)
    assert done.ok and done.view is not None
    assert done.view.score == (0, 2) or done.view.score == (2, 0)
    assert done.messages[0].key == "resigned" and done.messages[0].args["points"] == 2
    assert done.view.match_winner == started.view.players.index(BOB) if started.view else False
    top = await service.top(HERE)
    rows = [m for m in top.messages if m.key == "top_row"]
    assert [r.args["name"] for r in rows] == ["bob", "alice"]
    assert rows[0].args["prov"] is True  # provisional: marked, and the mark is explained
    assert top.messages[-1].key == "rating_legend"
    stats = await service.stats(BOB, HERE)
    assert stats.messages[0].args["wins"] == 1 and stats.messages[0].args["points"] == 2
    assert stats.messages[1].key == "stats_global"


async def test_abort_only_before_both_moved(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    assert started.view is not None
    assert any(a.kind == "abort" for a in started.actions)
    aborted = await service.abort(CAROL, HERE)
    assert aborted.error_key == "no_game_here"
    aborted = await service.abort(ALICE, HERE)
    assert aborted.ok and aborted.view is not None and aborted.view.status == "aborted"
    assert (await service.top(HERE)).messages[0].key == "top_empty"
    # a new game; after both have moved, abort is refused
    started = await start_game(service, ALICE, BOB, HERE)
    rng = random.Random(5)
    result = started
    movers: set[str] = set()
    while len(movers) < 2:
        assert result.view is not None
        who = result.view.players[result.view.turn]
        movers.add(who.user_id)
        result = await service.move(who, HERE, format_play(random_play(result.view, rng)))
        assert result.ok
    assert (await service.abort(ALICE, HERE)).error_key == "cannot_abort"


async def test_export_layout(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE, length=1)
    _final, turns = await play_out(service, started, HERE, random.Random(9))
    export = await service.export(ALICE, HERE)
    assert export.ok
    text = export.messages[0].args["text"]
    lines = text.splitlines()
    assert " 1 point match" in lines and " Game 1" in lines
    assert any(line.startswith("  1) ") for line in lines)
    assert sum(1 for line in lines if line.strip().startswith("Wins ")) == 1
    moves = [line for line in lines if line[:4].strip().rstrip(")").isdigit()]
    assert len(moves) >= turns // 2


async def test_autoplay_single_legal_play(service: GameService) -> None:
    assert (await service.set_setting(ALICE, HERE, "autoplay", "on")).ok
    assert (await service.set_setting(BOB, HERE, "autoplay", "yes")).ok
    result = await start_game(service, ALICE, BOB, HERE)
    rng = random.Random(11)
    seen: list[str] = [m.key for m in result.messages]
    while result.view is not None and result.view.status == "play":
        view = result.view
        pos = mover_position(view)
        assert view.dice is not None
        assert len(legal_plays(pos, view.dice)) > 1  # a single legal play never waits for the player
        result = await service.move(view.players[view.turn], HERE, format_play(random_play(view, rng)))
        assert result.ok
        seen += [m.key for m in result.messages]
    assert "auto_played" in seen


async def test_one_game_per_channel_but_many_channels(service: GameService) -> None:
    await start_game(service, ALICE, BOB, HERE)
    assert (await service.challenge(ALICE, HERE, CAROL)).error_key == "already_in_game_here"
    assert (await service.challenge(CAROL, HERE, ALICE)).error_key == "opponent_in_game_here"
    assert (await service.play_ai(ALICE, HERE)).error_key == "already_in_game_here"
    other = await start_game(service, ALICE, CAROL, THERE)
    assert other.ok
    # a command in THERE acts on that game, not the one in HERE
    board_here = await service.board(ALICE, HERE)
    board_there = await service.board(ALICE, THERE)
    assert board_here.game_id != board_there.game_id


async def test_step_builder_reaches_every_legal_play() -> None:
    rng = random.Random(4)
    game = Game.new()
    for _ in range(60):
        if game.is_over():
            break
        assert game.dice is not None
        legal = game.legal_plays()
        reached: set[Position] = set()
        stack: list[list[tuple[int, int]]] = [[]]
        while stack and len(reached) < len(legal):
            pending = stack.pop()
            state = build(game.position, game.dice, game.rules, legal, pending)
            if state.play is not None:
                reached.add(state.play.result)
                continue
            for point, dice in state.options.items():
                for die in dice:
                    stack.append([*pending, (point, die)])
        assert reached == {p.result for p in legal}
        game.play(rng.choice(legal))
    assert isinstance(Position.start(), Position)


async def test_resign_prompt_hint_and_aborted_record(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    view = started.view
    assert view is not None
    mover = view.players[view.turn]
    prompt = await service.resign_prompt(mover, HERE)  # before both moved, resigning calls the game off
    assert prompt.ok and prompt.messages[0].key == "resign_abort_prompt"
    assert [a.kind for a in prompt.actions] == ["resign_confirm"] and prompt.actions[0].payload["points"] == 2
    assert (await service.hint(mover, HERE)).error_key == "hint_rated"  # no AI advice in a rated game
    assert (await service.abort(mover, HERE)).ok
    record = (await service.record(view.game_id)).messages[0].args["record"]
    assert record["games"][0]["status"] == "aborted" and record["games"][0]["outcome"] is None
    assert (await service.export(ALICE, HERE)).ok


async def test_two_instances_taking_turns_see_each_others_moves(any_store, clock: FakeClock) -> None:
    from .conftest import make_service

    one, two = make_service(any_store, clock), make_service(any_store, clock)
    result = await start_game(one, ALICE, BOB, HERE)
    rng = random.Random(21)
    for n in range(16):
        service = (one, two)[n % 2]
        assert result.view is not None
        view = result.view
        result = await service.move(view.players[view.turn], HERE, format_play(random_play(view, rng)))
        assert result.ok, result.messages
        assert result.view is not None and result.view.version == view.version + 1
    for service in (one, two):
        board = await service.board(ALICE, HERE)
        assert board.view == result.view


async def test_the_real_ai_plays_through_the_service(any_store, clock: FakeClock) -> None:
    from bot.service.ai import EngineAI

    service = GameService(any_store, clock=clock)  # ai=None: fevga.ai when it is importable
    assert isinstance(service.ai, EngineAI)
    result = await service.play_ai(ALICE, HERE, level="hard")
    assert result.ok
    rng = random.Random(2)
    for _ in range(6):
        assert result.view is not None and result.view.status == "play" and result.view.turn == 0
        hint = await service.hint(ALICE, HERE)
        assert hint.ok and hint.messages[0].key == "hint_line"
        result = await service.move(ALICE, HERE, format_play(random_play(result.view, rng)))
        assert result.ok, result.messages
        assert result.view is not None
        ai_turn = [m.args["player"] for m in result.messages if m.key in ("ai_played", "forced_pass")]
        assert "AI (hard)" in ai_turn or result.view.status != "play"


async def test_ratings_after_a_first_match_match_glicko2(service: GameService) -> None:
    """Two new players (1500 / 350 / 0.06): the winner goes to 1662.3 (RD 290.3), the loser to 1337.7."""
    await until_both_moved(service, await start_game(service, ALICE, BOB, HERE), HERE, random.Random(6))
    assert (await service.resign(ALICE, HERE)).ok
    bob, alice = (await service.stats(BOB, HERE)).messages, (await service.stats(ALICE, HERE)).messages
    assert (bob[0].args["rating"], bob[0].args["rd"], bob[0].args["rank"]) == (1662, 290, 1)
    assert (alice[0].args["rating"], alice[0].args["rd"], alice[0].args["rank"]) == (1338, 290, 2)
    assert bob[0].args["prov"] and alice[0].args["prov"]
    assert bob[0].args["streak"] == 1 and alice[0].args["streak"] == -1
    assert "streak: 1 lost in a row" in translate(alice[0].key, "en", **alice[0].args)  # not "streak -1"
    assert "σερί: 1 νίκη στη σειρά" in translate(bob[0].key, "el", **bob[0].args)
    assert bob[1].key == "stats_global" and bob[1].args["rating"] == 1662
    # a second match between them, on another server: the global board moves, this one does not
    elsewhere = Place("discord", "guild2", "chanX")
    await until_both_moved(service, await start_game(service, ALICE, BOB, elsewhere), elsewhere, random.Random(7))
    assert (await service.resign(ALICE, elsewhere)).ok
    bob = (await service.stats(BOB, HERE)).messages
    assert bob[0].args["rating"] == 1662 and bob[0].args["games"] == 1
    assert bob[1].args["games"] == 2 and bob[1].args["rating"] != 1662
    top_global = await service.top(HERE, global_=True)
    assert [m.args["name"] for m in top_global.messages if m.key == "top_row"] == ["bob", "alice"]


async def test_autoplay_applies_to_the_running_game(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    assert started.view is not None
    assert (await service.set_setting(ALICE, HERE, "autoplay", "on")).ok
    assert (await service.set_setting(BOB, HERE, "autoplay", "on")).ok
    result = await service.board(ALICE, HERE)
    assert result.view is not None and result.view.version == started.view.version + 2
    rng = random.Random(5)
    seen: list[str] = []
    while result.view is not None and result.view.status == "play":
        view = result.view
        assert view.dice is not None
        assert len(legal_plays(mover_position(view), view.dice)) > 1
        result = await service.move(view.players[view.turn], HERE, format_play(random_play(view, rng)))
        assert result.ok
        seen += [m.key for m in result.messages]
    assert "auto_played" in seen

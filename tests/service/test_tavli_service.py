"""Portes, Plakoto and tavli matches through the service: the kind chosen by a challenge, by the AI
command and by the place's ``default_game``; the rotation; a Plakoto draw; old records load as Fevga."""

from __future__ import annotations

import random
import zlib

import pytest

from bot.chat.pingplan import end_text
from bot.commands import intents as i
from bot.commands.executor import execute
from bot.commands.grammar import parse_command
from bot.i18n import translate
from bot.service import GameService
from bot.service.ai import RandomAI
from bot.service.challenge import Challenge
from bot.service.commits import Change
from bot.service.flow import MatchFlow
from bot.service.session import Session, decode, encode
from bot.service.views import build_view
from bot.storage import Store
from fevga import Board, FairDice, FixedDice, Game, Play, Position, Rules, format_play
from fevga.ai.stakes import MatchScore
from fevga.match import game_kind
from fevga.variants import AnyRules, PlakotoRules, game_of
from tests.engine.tavli_positions import tpos

from .conftest import ALICE, BOB, HERE, FakeClock
from .helpers import play_out, random_play, until_both_moved


async def test_a_tavli_match_rotates_portes_plakoto_fevga(service: GameService) -> None:
    made = await service.challenge(ALICE, HERE, BOB, length=4, kind="tavli")
    assert made.ok and made.messages[0].args["kind"] == "tavli"
    started = await service.accept(BOB, HERE)
    assert started.ok and started.view is not None
    assert (started.view.kind, started.view.game) == ("tavli", "portes")
    assert started.view.position_id.startswith("portes:")
    final, _turns = await play_out(service, started, HERE, random.Random(3))
    view = final.view
    assert view is not None and view.status == "done" and max(view.score) >= 4
    games = (await service.record(view.game_id)).messages[0].args["record"]["games"]
    assert len(games) == view.game_no >= 2
    points = [0, 0]
    for number, rec in enumerate(games, start=1):
        assert rec["game"].get("game", "fevga") == game_kind("tavli", number)
        if rec["outcome"]["winner"] is not None:
            points[rec["outcome"]["winner"]] += rec["outcome"]["points"]
        if number > 1 and games[number - 2]["outcome"]["winner"] is not None:
            assert rec["game"]["first"] == games[number - 2]["outcome"]["winner"]  # the last winner starts
    assert tuple(points) == view.score
    exported = await service.export(ALICE, HERE)  # the .mat-like text names the game of each game
    text = next(m.args["text"] for m in exported.messages if m.key == "export")
    assert '; [Variation "Tavli"]' in text
    named = [line for line in text.splitlines() if line.startswith('; [Game "')]
    assert named == [f'; [Game "{game_kind("tavli", n).capitalize()}"]' for n in range(1, len(games) + 1)]


async def test_play_ai_plakoto_and_a_portes_challenge(service: GameService) -> None:
    started = await service.play_ai(ALICE, HERE, level="hard", kind="plakoto")
    assert started.ok and started.view is not None
    assert (started.view.kind, started.view.game) == ("plakoto", "plakoto")
    final, _ = await play_out(service, started, HERE, random.Random(5))
    assert final.view is not None and final.view.status == "done"
    rematch = await service.rematch(ALICE, HERE)  # the same kind and length
    assert rematch.ok and rematch.view is not None and rematch.view.kind == "plakoto"


async def test_default_game_is_what_a_bare_challenge_plays(service: GameService) -> None:
    changed = await service.set_setting(ALICE, HERE, "default_game", "Πόρτες", is_admin=True)
    assert changed.ok, changed.messages
    bad = await service.set_setting(ALICE, HERE, "default_game", "chess", is_admin=True)
    assert not bad.ok and bad.error_key == "setting_bad_value"
    assert (await service.challenge(ALICE, HERE, BOB, length=3)).ok
    started = await service.accept(BOB, HERE)
    assert started.view is not None and (started.view.kind, started.view.match_length) == ("portes", 3)
    assert started.messages[0].args["kind"] == "portes"


async def test_an_unknown_kind_is_refused_and_changes_nothing(service: GameService) -> None:
    refused = await service.challenge(ALICE, HERE, BOB, kind="chess")
    assert not refused.ok and refused.error_key == "bad_match_kind_here"
    assert (await service.accept(BOB, HERE)).error_key == "no_challenge"


def _tavli_session(game: Game, game_no: int) -> Session:
    """A 5-point tavli match at 4-2 playing ``game`` as its game ``game_no``."""
    return Session("g1", HERE, (ALICE, BOB), 5, Rules(), game, 0.0, 3600.0, score=[4, 2], game_no=game_no, kind="tavli")


async def test_a_plakoto_draw_scores_nothing_and_moves_the_rotation_on(any_store: Store, clock: FakeClock) -> None:
    game = Game.new(PlakotoRules(), FixedDice([(4, 1)]), first=0)
    k6c = tpos("plakoto", {1: 1, 7: 1, 12: 2, 17: 1, 18: 4, 19: 5, 24: 1}, {24: 1, 5: 7, 3: 7}, his_pinned=(24,))
    game.board = Board(k6c.flip(), game.turn, game.rules)  # RULES-TAVLI K-6c, seen by the player to move
    game.play("20/24* 20/21")
    assert game.outcome is not None and game.outcome.is_draw
    s = _tavli_session(game, 5)  # game 5 of a tavli match is Plakoto
    change = Change()
    MatchFlow(any_store, clock, RandomAI(1)).game_over(s, change)
    assert s.score == [4, 2] and s.status == "play"
    assert (s.game_no, s.game.game, s.game.first) == (6, "fevga", None)  # the opening roll decides
    assert [m.key for m in change.messages][:2] == ["game_drawn", "next_game_after_draw"]
    after = change.messages[1]  # a tavli match names each game, Fevga too
    assert "Game 6 (Fevga) begins" in translate(after.key, "en", **after.args)
    assert "παρτίδα 6 (Φεύγα)" in translate(after.key, "el", **after.args)
    assert decode(encode(s)).kind == "tavli" and decode(encode(s)).game.game == "fevga"
    view = build_view(decode(encode(s)), 9)
    assert view.previous_drawn and not view.drawn
    assert "Game 5 is a draw: both mothers are pinned. Score: alice 4–2 bob" in end_text(view, "en")
    assert "ισοπαλία" in end_text(view, "el")
    decided = Game.new(None, FixedDice([(6, 5)]), first=0)
    decided.resign(0)  # bob wins it: 4-3, the match goes on
    s.game = decided
    MatchFlow(any_store, clock, RandomAI(1)).game_over(s, Change())
    after = build_view(decode(encode(s)), 10)
    assert not after.previous_drawn and "Game 6 is over." in end_text(after, "en")


def test_sessions_and_challenges_stored_before_tavli_load_as_fevga() -> None:
    game = Game.new(None, FairDice(), at=0.0)
    old = Session("g0", HERE, (ALICE, BOB), 3, Rules(), game, 0.0, 3600.0)
    blob = encode(old)
    assert b'"k"' not in zlib.decompress(blob)  # a Fevga session is stored as before
    loaded = decode(blob)
    assert (loaded.kind, loaded.game.game, loaded.game_name) == ("fevga", "fevga", "fevga")
    written_before = (b'{"id": "c1", "from": ["discord", "100", "alice"], "to": ["discord", "200", "bob"], '
                      b'"place": ["discord", "guild1", "chan1"], "n": 5, "r": {"unlock_point": 13}, '
                      b'"created": 1.0, "exp": 2.0, "quick": false}')
    assert Challenge.decode(written_before).kind == "fevga"


@pytest.mark.parametrize(("game", "en_word", "el_word"), [
    ("portes", "Portes in short", "Οι Πόρτες"), ("plakoto", "Plakoto in short", "Το Πλακωτό"),
    ("tavli", "A tavli match", "αγώνας τάβλι"), ("fevga", "Fevga in short", "Φεύγα"),
])
async def test_rules_answers_in_both_languages(service: GameService, game: str, en_word: str, el_word: str) -> None:
    answer = await execute(service, ALICE, HERE, i.ShowRules(game))
    assert answer.ok and len(answer.messages) == 1
    msg = answer.messages[0]
    assert en_word in translate(msg.key, "en", **msg.args)
    assert el_word in translate(msg.key, "el", **msg.args)


class ScoreSeeingAI(RandomAI):
    """A random AI that notes the match score it is asked to play at, with the game of the position."""

    def __init__(self) -> None:
        super().__init__(seed=11)
        self.seen: list[tuple[MatchScore | None, str]] = []
        self.hinted: list[MatchScore | None] = []

    def choose(self, position: Position, dice: tuple[int, int], rules: AnyRules, level: str,
               score: MatchScore | None = None) -> Play:
        self.seen.append((score, game_of(position)))
        return super().choose(position, dice, rules, level, score)

    def hint(self, position: Position, dice: tuple[int, int], rules: AnyRules, n: int,
             score: MatchScore | None = None) -> list[tuple[Play, float]]:
        self.hinted.append(score)
        return super().hint(position, dice, rules, n, score)


async def test_the_ai_is_told_the_score_of_its_tavli_match(any_store: Store, clock: FakeClock) -> None:
    """The AI in seat 1 gets the match as it stands before each of its plays: its points first, the game's number
    and kind; so its network can play the score (fevga.ai.stakes)."""
    ai = ScoreSeeingAI()
    service = GameService(any_store, clock=clock, ai=ai)  # type: ignore[arg-type]
    started = await service.play_ai(ALICE, HERE, level="hard", length=3, kind="tavli")
    assert started.ok and started.view is not None
    final, _ = await play_out(service, started, HERE, random.Random(8))
    assert final.view is not None and final.view.status == "done"
    games = (await service.record(final.view.game_id)).messages[0].args["record"]["games"]
    before = [(0, 0)]
    for rec in games:
        won = rec["outcome"]["winner"]
        mine, theirs = before[-1]
        points = rec["outcome"]["points"] if won is not None else 0
        before.append((mine + points, theirs) if won == 1 else (mine, theirs + points))
    assert ai.seen and {score.number for score, _ in ai.seen if score is not None} >= {1, 2}
    for score, game in ai.seen:
        assert score is not None and (score.length, score.kind) == (3, "tavli")
        assert game == game_kind("tavli", score.number)
        assert (score.mine, score.theirs) == before[score.number - 1]


async def test_a_hint_in_a_match_is_asked_at_the_askers_score(any_store: Store, clock: FakeClock) -> None:
    """`hint` judges the plays as the AI would at the asker's score: his points first, the game's number."""
    ai = ScoreSeeingAI()
    service = GameService(any_store, clock=clock, ai=ai)  # type: ignore[arg-type]
    started = await service.play_ai(ALICE, HERE, level="easy", length=5, kind="portes")
    assert started.ok and started.view is not None
    result = started
    while result.view is not None and result.view.status == "play" and result.view.game_no == 1:
        view = result.view
        hinted = await service.hint(ALICE, HERE)
        assert hinted.ok and hinted.messages[0].key == "hint_line"
        assert ai.hinted[-1] == MatchScore(5, view.score[0], view.score[1], "portes", view.game_no)
        result = await service.move(ALICE, HERE, format_play(random_play(view, random.Random(len(ai.hinted)))),
                                    game_id=view.game_id)
        assert result.ok, result.messages


async def test_the_group_is_told_the_match_is_over_not_a_game(any_store: Store, clock: FakeClock) -> None:
    """The last game of a match: the group's new message says the match is over and its result (it said
    "Game over: … wins (1 point)", as for any game)."""
    last = Game.new(None, FixedDice([(6, 5)]), first=0)
    last.resign(1)  # alice wins it: the 5-point match is hers
    s = _tavli_session(last, 7)
    MatchFlow(any_store, clock, RandomAI(1)).game_over(s, Change())
    view = build_view(decode(encode(s)), 12)
    assert view.status == "done" and view.match_winner == 0
    score = f"{view.score[0]}-{view.score[1]}"
    assert view.score[0] >= 5
    assert end_text(view, "en") == f"Match over (alice – bob): alice wins the 5-point match, {score}!"
    assert end_text(view, "el").startswith("Τέλος αγώνα (alice – bob): Ο/Η alice κερδίζει τον αγώνα")


async def test_a_button_of_an_earlier_game_of_the_match_says_so(service: GameService) -> None:
    """A step button of game 1 pressed once game 2 runs: "from an earlier game of this match" (it said the turn
    was already played); a button of the current game still works."""
    assert (await service.challenge(ALICE, HERE, BOB, length=5, kind="tavli")).ok
    started = await until_both_moved(service, await service.accept(BOB, HERE), HERE, random.Random(5))
    view = started.view
    assert view is not None and view.game_no == 1
    old = next(a for a in started.actions if a.kind == "step")
    loser = view.players[view.turn]
    gave_up = await service.resign(loser, HERE)
    assert gave_up.ok and gave_up.view is not None and gave_up.view.game_no == 2, gave_up.messages
    mover = gave_up.view.players[gave_up.view.turn]
    stale = await service.step(mover, HERE, view.game_id, old.version, old.payload["from_point"], old.payload["die"])
    assert stale.error_key == "stale_earlier_game" and stale.messages[0].args["game_no"] == 2
    assert "earlier game of this match" in translate(stale.messages[0].key, "en", **stale.messages[0].args)
    fresh = next(a for a in gave_up.actions if a.kind == "step")
    assert (await service.step(mover, HERE, view.game_id, fresh.version, fresh.payload["from_point"],
                               fresh.payload["die"])).ok


async def test_a_bare_play_ai_plays_the_configured_level(any_store: Store, clock: FakeClock) -> None:
    """FEVGA_AI_LEVEL (the service's ``ai_level``) is the level of a bare ``play ai`` (it was always medium);
    a level named still wins."""
    from tests.service.conftest import make_service

    service = make_service(any_store, clock, ai_level="hard")
    bare = await execute(service, ALICE, HERE, parse_command("play ai portes"))
    assert bare.ok and bare.view is not None and "AI (hard)" in bare.view.names
    named = await execute(service, BOB, HERE, parse_command("play ai easy"))
    assert named.ok and named.view is not None and "AI (easy)" in named.view.names

"""Every authorization rule: who may accept, decline, cancel, move, step, claim, change settings."""

from __future__ import annotations

import random

from bot.service import GameService, Place, PlayerRef
from fevga import format_play

from .conftest import ALICE, BOB, CAROL, HERE, THERE, FakeClock
from .helpers import random_play, start_game


async def test_cannot_accept_own_or_someone_elses_challenge(service: GameService) -> None:
    made = await service.challenge(ALICE, HERE, BOB)
    cid = made.actions[0].payload["challenge_id"]
    assert (await service.accept(ALICE, HERE, cid)).error_key == "own_challenge"
    assert (await service.accept(CAROL, HERE, cid)).error_key == "challenge_for_other"
    typed = await service.accept(CAROL, HERE)  # typed, without an id: the one challenge here is bob's
    assert typed.error_key == "challenge_for_other" and typed.messages[0].args["player"] == "bob"
    assert (await service.accept(BOB, THERE, cid)).error_key == "wrong_place"
    assert (await service.decline(CAROL, HERE, cid)).error_key == "challenge_for_other"
    assert (await service.cancel(BOB, HERE, cid)).error_key == "not_your_challenge"
    assert (await service.accept(BOB, HERE, cid)).ok
    assert (await service.accept(BOB, HERE, cid)).error_key == "no_challenge"  # gone once taken


async def test_open_challenge_anyone_but_the_author(service: GameService) -> None:
    made = await service.challenge(ALICE, HERE, None, length=5)
    assert made.ok and made.messages[0].key == "challenge_open" and made.to_notify == []
    assert [a.kind for a in made.actions] == ["accept", "cancel"]
    assert (await service.accept(ALICE, HERE)).error_key == "no_challenge"
    assert (await service.decline(CAROL, HERE)).error_key == "no_challenge"
    taken = await service.accept(CAROL, HERE)
    assert taken.ok and taken.view is not None and taken.view.match_length == 5
    assert {p.user_id for p in taken.view.players} == {ALICE.user_id, CAROL.user_id}


async def test_decline_and_cancel(service: GameService) -> None:
    made = await service.challenge(ALICE, HERE, BOB)
    declined = await service.decline(BOB, HERE)
    assert declined.ok and declined.to_notify == [ALICE]
    assert (await service.accept(BOB, HERE)).error_key == "no_challenge"
    await service.challenge(ALICE, HERE, BOB)
    cancelled = await service.cancel(ALICE, HERE)
    assert cancelled.ok and cancelled.to_notify == [BOB]
    assert (await service.accept(BOB, HERE)).error_key == "no_challenge"
    assert made.ok


async def test_bad_challenge_options(service: GameService) -> None:
    assert (await service.challenge(ALICE, HERE, ALICE)).error_key == "challenge_self"
    for bad in (0, 26, -1):
        assert (await service.challenge(ALICE, HERE, BOB, length=bad)).error_key == "bad_length"
    assert (await service.play_ai(ALICE, HERE, level="godlike")).error_key == "bad_level"


async def test_wrong_player_wrong_place_out_of_turn(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    view = started.view
    assert view is not None
    mover = view.players[view.turn]
    waiting = view.players[view.turn ^ 1]
    text = format_play(random_play(view, random.Random(1)))
    assert (await service.move(waiting, HERE, text)).error_key == "not_your_turn"
    assert (await service.move(CAROL, HERE, text)).error_key == "no_game_here"
    assert (await service.move(CAROL, HERE, text, game_id=view.game_id)).error_key == "not_in_game"
    assert (await service.move(mover, THERE, text)).error_key == "no_game_here"
    assert (await service.move(mover, THERE, text, game_id=view.game_id)).error_key == "wrong_place"
    other_platform = Place("telegram", "g", HERE.channel_id)
    assert (await service.move(mover, other_platform, text, game_id=view.game_id)).error_key in (
        "not_in_game", "wrong_place")
    assert (await service.undo(waiting, HERE)).error_key == "not_your_turn"
    assert (await service.confirm(waiting, HERE)).error_key == "not_your_turn"
    assert (await service.hint(waiting, HERE)).error_key == "not_your_turn"
    assert (await service.claim(waiting, HERE)).error_key == "claim_too_early"
    assert (await service.claim(mover, HERE)).error_key == "claim_own_turn"
    played = await service.move(mover, HERE, text)
    assert played.ok
    # the same player again: his turn was already played
    if played.view and played.view.turn != view.turn:
        assert (await service.move(mover, HERE, text)).error_key == "turn_already_played"
    # nothing changed by the refused commands
    assert played.view is not None and played.view.version == view.version + 1


async def test_step_by_the_waiting_player_is_refused(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    view = started.view
    assert view is not None
    waiting = view.players[view.turn ^ 1]
    step = next(a for a in started.actions if a.kind == "step")
    refused = await service.step(waiting, HERE, view.game_id, view.version, step.payload["from_point"],
                                 step.payload["die"])
    assert refused.error_key == "not_your_turn"


async def test_settings_need_admin_for_the_place(service: GameService, clock: FakeClock) -> None:
    assert (await service.set_setting(ALICE, HERE, "deadline_hours", "2")).error_key == "setting_admin_only"
    for bad in ("0", "nope"):  # a member is told who may change it, not what values it takes
        assert (await service.set_setting(ALICE, HERE, "deadline_hours", bad)).error_key == "setting_admin_only"
    assert (await service.set_setting(ALICE, HERE, "deadline", "0")).error_key == "setting_admin_only"  # an alias
    assert (await service.set_setting(ALICE, HERE, "deadline_hours", "nope", is_admin=True)).error_key == \
        "setting_bad_value"
    assert (await service.set_setting(ALICE, HERE, "colour", "red")).error_key == "setting_unknown"
    assert (await service.set_setting(ALICE, HERE, "lang", "fr")).error_key == "setting_bad_value"
    assert (await service.set_setting(ALICE, HERE, "deadline", "2", is_admin=True)).ok
    assert (await service.set_setting(ALICE, HERE, "unlock_point", "14", is_admin=True)).ok
    assert (await service.set_setting(ALICE, HERE, "lang", "el")).ok
    assert await service.lang(ALICE, HERE) == "el"
    assert await service.lang(BOB, HERE) == "en"
    assert (await service.set_setting(ALICE, HERE, "place_lang", "el", is_admin=True)).ok
    assert await service.lang(BOB, HERE) == "el"
    listed = {m.args["name"]: m.args["value"] for m in (await service.settings(ALICE, HERE)).messages}
    assert listed["deadline_hours"] == "2" and listed["unlock_point"] == "14"
    started = await start_game(service, ALICE, BOB, HERE)
    assert started.view is not None and started.view.rules["unlock_point"] == 14
    assert started.view.deadline is not None
    assert started.view.deadline == clock.now + 2 * 3600


async def test_players_on_another_platform_cannot_be_challenged(service: GameService) -> None:
    stranger = PlayerRef("telegram", "100", "alice-tg")
    assert (await service.challenge(ALICE, HERE, stranger)).error_key == "not_for_you"

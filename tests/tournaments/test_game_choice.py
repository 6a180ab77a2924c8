"""Tournaments choose the game: ``tournament create swiss plakoto ...`` (English or Greek names; default: the
place's ``default_game``), the matches start as that kind, the texts name it, and seeds come from its board."""

import pytest

from bot.commands import intents as i
from bot.commands import tournament_intents as t
from bot.commands.executor import execute
from bot.commands.grammar import parse_command
from bot.i18n import translate
from bot.service import GameService, Place, PlayerRef, keys
from bot.service.ai import RandomAI
from bot.service.tournaments import model
from bot.storage import RedisStore

PLACE = Place("telegram", "group7", "group7")
ADMIN, BOB, CAROL = (PlayerRef("telegram", str(n), name) for n, name in ((1, "ann"), (2, "bob"), (3, "carol")))


@pytest.mark.parametrize(
    ("line", "intent"),
    [
        ("tournament create swiss plakoto rounds 3 points 3",
         t.TournamentCreate("swiss", 3, 3, game="plakoto")),
        ("tournament create knockout Πόρτες points 5", t.TournamentCreate("knockout", points=5, game="portes")),
        ("tournament create τάβλι", t.TournamentCreate(game="tavli")),
        ("tournament create swiss rounds 2 FEVGA", t.TournamentCreate("swiss", 2, game="fevga")),
        ("tournament create swiss", t.TournamentCreate("swiss", game=None)),
    ],
)  # fmt: skip
def test_the_game_word_is_read_anywhere_in_create(line: str, intent: t.TournamentCreate) -> None:
    assert parse_command(line) == intent


def test_a_second_game_word_is_a_bad_option() -> None:
    answer = parse_command("tournament create portes plakoto")
    assert isinstance(answer, i.CommandError) and answer.key == "cmd_bad_option"


def test_an_event_stored_before_games_were_chosen_is_fevga() -> None:
    made = model.Tournament("T1", PLACE, "swiss", 3, 1, 86400.0, 0.0, True, "1", game="plakoto")
    assert model.Tournament.decode(made.encode()).game == "plakoto"
    old = made.encode().replace(b',"game":"plakoto"', b"")
    assert b"plakoto" not in old and model.Tournament.decode(old).game == "fevga"


@pytest.fixture
async def service(redis_server):
    store = RedisStore.from_url(redis_server.url)
    await store.client.flushall()
    try:
        yield GameService(store, ai=RandomAI(seed=3))
    finally:
        await store.close()


async def run(service: GameService, who: PlayerRef, line: str, admin: bool = False):
    return await execute(service, who, PLACE, parse_command(line), is_admin=admin)


async def test_a_plakoto_tournament_starts_plakoto_matches_and_says_so(service: GameService) -> None:
    made = await run(service, ADMIN, "tournament create swiss πλακωτό rounds 1 points 3", admin=True)
    assert made.ok and made.messages[0].args["game"] == "plakoto"
    assert "matches of Plakoto" in translate(made.messages[0].key, "en", **made.messages[0].args)
    assert "αγώνες σε Πλακωτό" in translate(made.messages[0].key, "el", **made.messages[0].args)
    for who in (ADMIN, BOB):
        assert (await run(service, who, "tournament join")).ok
    assert (await run(service, ADMIN, "tournament start", admin=True)).ok
    _v, event = await service.tournaments.current(PLACE)
    assert event is not None and event.game == "plakoto"
    (gid,) = (await service.store.read([("hgetall", model.round_games(event.id))]))[0].values()
    view = (await service.view_of(gid)).view
    assert view is not None and (view.kind, view.game, view.match_length) == ("plakoto", "plakoto", 3)
    shown = await run(service, BOB, "tournament")
    header = shown.messages[0]
    assert header.key == "tournament_table_start"  # round 1 is being played: no results yet
    assert translate(header.key, "en", **header.args).startswith(f"Tournament {event.id} (Plakoto), standings")


async def test_no_game_word_plays_the_place_default_game(service: GameService) -> None:
    assert (await service.set_setting(ADMIN, PLACE, "default_game", "tavli", is_admin=True)).ok
    made = await run(service, ADMIN, "tournament create knockout points 5", admin=True)
    assert made.ok and made.messages[0].args["game"] == "tavli"
    assert "matches of tavli" in translate(made.messages[0].key, "en", **made.messages[0].args)
    for who in (ADMIN, BOB):
        assert (await run(service, who, "tournament join")).ok
    assert (await run(service, ADMIN, "tournament start", admin=True)).ok
    _v, event = await service.tournaments.current(PLACE)
    assert event is not None
    (gid,) = (await service.store.read([("hgetall", model.round_games(event.id))]))[0].values()
    view = (await service.view_of(gid)).view
    assert view is not None and (view.kind, view.game) == ("tavli", "portes")  # tavli opens with Portes


async def test_seeds_come_from_the_board_of_the_events_game(service: GameService) -> None:
    scope = keys.board_scope(PLACE.platform, PLACE.scope_id)
    await service.store.client.zadd(keys.ratings(keys.kind_board(scope, "portes")), {"3": 1720.0})
    await service.store.client.zadd(keys.ratings(scope), {"3": 1300.0})  # his Fevga rating: not this event's
    assert (await run(service, ADMIN, "tournament create swiss portes", admin=True)).ok
    assert (await run(service, CAROL, "tournament join")).ok
    _v, event = await service.tournaments.current(PLACE)
    assert event is not None and event.entrant("3") is not None
    assert event.entrant("3").rating == 1720.0  # type: ignore[union-attr]


def test_a_tavli_events_header_names_the_game_without_nested_brackets() -> None:
    """The standings headers name the game by its short name: "(Tavli)", not "(tavli (Portes, ...))"."""
    for lang, name in (("en", "Tavli"), ("el", "Τάβλι")):
        for key in ("tournament_table_open", "tournament_table_start", "tournament_table_header",
                    "tournament_table_final"):
            said = translate(key, lang, id="x", game="tavli", round=1, rounds=3)
            assert f"x ({name})" in said and "((" not in said and "))" not in said, said

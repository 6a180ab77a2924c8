"""The tournament commands: the grammar reads them, the catalogues word every message in both languages,
and the executor runs them on the service (on a real Redis)."""

import re
from pathlib import Path

import pytest

from bot.chat.presenter import present
from bot.commands import intents as i
from bot.commands import tournament_intents as t
from bot.commands.executor import execute
from bot.commands.grammar import parse_command
from bot.i18n import catalogue, has, translate
from bot.service import GameService, Place, PlayerRef
from bot.service.ai import RandomAI
from bot.service.tournaments.adjudication import Verdict
from bot.storage import RedisStore

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("line", "intent"),
    [
        ("tournament", t.TournamentShow()),
        ("/tournament standings", t.TournamentShow()),
        ("tournament standings Cab12345", t.TournamentShow("Cab12345")),
        ("tournament CrOmWlHZ", t.TournamentShow("CrOmWlHZ")),  # the id alone, as docs/tournaments.md gives it
        ("τουρνουά CrOmWlHZ", t.TournamentShow("CrOmWlHZ")),
        ("/tournament C-_x9a0Z", t.TournamentShow("C-_x9a0Z")),
        ("tournament join", t.TournamentAct("join")),
        ("τουρνουά leave", t.TournamentAct("leave")),
        ("tournament start", t.TournamentAct("start")),
        ("tournament cancel", t.TournamentAct("cancel")),
        ("tournament remove @bob", t.TournamentRemove("@bob")),
        ("tournaments", t.TournamentList()),
        ("tournament create swiss rounds 5 points 3 deadline 24h start 2h",
         t.TournamentCreate("swiss", 5, 3, 86400.0, start_in=7200.0)),
        ("tournament create knockout unrated deadline 1d12h",
         t.TournamentCreate("knockout", deadline=129600.0, rated=False)),
        ("tournament create start 2026-11-28T18:00", t.TournamentCreate(start_at=1795888800.0)),
    ],
)  # fmt: skip
def test_grammar_reads_them(line, intent):
    assert parse_command(line) == intent


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("tournament create rounds five", "cmd_tournament_number"),
        ("tournament create deadline soon", "cmd_tournament_duration"),
        ("tournament create start someday", "cmd_tournament_start"),
        ("tournament create arena", "cmd_bad_option"),
        ("tournament remove", "cmd_tournament_remove_usage"),
        ("tournament dance", "cmd_tournament_usage"),
        ("tournament join now", "cmd_too_many_words"),
        ("tournaments all", "cmd_too_many_words"),
    ],
)
def test_grammar_says_what_to_type(line, key):
    answer = parse_command(line)
    assert isinstance(answer, i.CommandError) and answer.key == key
    assert has(key, "en") and has(key, "el")


def test_every_tournament_message_in_both_catalogues():
    found: set[str] = set()
    for path in (ROOT / "bot" / "service" / "tournaments").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'(?:Msg|Result\.error)\(\s*"([a-z0-9_]+)"', text))
        found |= set(re.findall(r'"(tourna[a-z0-9_]+)" if ', text)) | set(re.findall(r'else "(tourna[a-z_]+)"', text))
    reasons = Verdict.__annotations__  # the adjudication reasons, each a message of its own
    assert "reason" in reasons
    found |= {f"tournament_adjudicated_{r}" for r in ("never_moved", "idle", "both_idle", "score", "pips")}
    found |= {f"tournaments_row_{s}" for s in ("open", "running", "done", "cancelled")}
    found |= {"help_tournament", "help_tournaments", "tournament_table_final", "tournament_created_at"}
    found |= {f"{key}_knockout" for key in ("tournament_created", "tournament_created_at")}  # no rounds named
    assert len(found) > 40
    for lang in ("en", "el"):
        missing = sorted(k for k in found if not has(k, lang))
        assert not missing, (lang, missing)
    assert "Buchholz" in catalogue("el")["help_tournament"] and "pips" in catalogue("en")["help_tournament"]


def test_help_tournament_states_the_adjudication_rule():
    for lang in ("en", "el"):
        text = translate("help_tournament", lang, slash="/")
        assert "Buchholz" in text and "Sonneborn-Berger" in text
    english = translate("help_tournament", "en")
    assert "never moved loses" in english and "both lose" in english and "fewer pips" in english


async def test_executor_runs_a_tournament(redis_server):
    store = RedisStore.from_url(redis_server.url)
    await store.client.flushall()
    service = GameService(store, ai=RandomAI(seed=1))
    place = Place("telegram", "group9", "group9")
    admin, bob = PlayerRef("telegram", "1", "ann"), PlayerRef("telegram", "2", "bob")
    try:
        made = await execute(service, admin, place, parse_command("tournament create swiss rounds 1"), is_admin=True)
        assert made.ok and made.messages[0].key == "tournament_created", made.messages
        refused = await execute(service, bob, place, parse_command("tournament cancel"))
        assert refused.error_key == "tournament_admin_only"
        for who in (admin, bob):
            assert (await execute(service, who, place, parse_command("tournament join"))).ok
        early = await execute(service, bob, place, parse_command("tournament"))  # signed up, not started
        assert early.ok and early.messages[0].key == "tournament_table_open"
        assert "not started yet" in translate("tournament_table_open", "en", **early.messages[0].args)
        started = await execute(service, admin, place, parse_command("tournament start"), is_admin=True)
        assert started.ok and started.messages[0].key == "tournament_started"
        assert "2 players" in translate("tournament_started", "en", **started.messages[0].args)
        shown = await execute(service, bob, place, parse_command("tournament"))
        assert shown.ok and shown.messages[0].key == "tournament_table_start"  # round 1: no results yet
        (table,) = await present(shown, "el")  # the text form and the picture, in one reply
        assert table.image is not None and table.image.startswith(b"\x89PNG") and table.image_name == "standings.png"
        assert "κατάταξη" in table.text and "ann" in table.text and "bob" in table.text
        (joined,) = await present(await execute(service, bob, place, parse_command("tournament join")), "en")
        assert joined.image is None and joined.error  # not open any more; no picture with other replies
        gone = await execute(service, admin, place, parse_command("tournament remove carol"), is_admin=True)
        assert gone.error_key == "cmd_unknown_player"
        listed = await execute(service, bob, place, parse_command("tournaments"))
        assert [m.key for m in listed.messages] == ["tournaments_header", "tournaments_row_running"]
    finally:
        await store.close()

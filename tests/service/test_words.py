"""Wording: plurals from Babel's rules (en, el), durations, second-person forms, platform words, the
provisional mark and its legend, "top 1000", and which language (place or personal) a reply uses."""

from __future__ import annotations

import io
import json
import random
import re
import string
from pathlib import Path

import pytest

import bot.i18n
from bot.chat.core import BotCore
from bot.chat.presenter import context_words, message_text
from bot.console import ConsoleChat
from bot.i18n import duration, language_of, plural, plural_form, plurals, translate
from bot.service.models import Msg, Place, PlayerRef
from bot.storage import MemoryStore
from tests.botkit import a_legal_play_text


def _base(lang: str) -> dict[str, object]:
    """The shared catalogue file of ``lang`` (the wording this module checks; areas have their own parts)."""
    return dict(json.loads((Path(bot.i18n.__file__).parent / f"{lang}.json").read_text(encoding="utf-8")))


ALICE, BOB = PlayerRef("telegram", "1", "Alice"), PlayerRef("telegram", "2", "Bob")
GROUP = Place("telegram", "-100", "-100")


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["0 matches", "1 match", "2 matches", "5 matches"]),
    ("el", ["0 αγώνες", "1 αγώνας", "2 αγώνες", "5 αγώνες"]),
])
def test_plurals_for_0_1_2_5(lang: str, expected: list[str]) -> None:
    assert [plural("matches", n, lang) for n in (0, 1, 2, 5)] == expected
    assert [plural_form(n, lang) for n in (0, 1, 2, 5)] == ["other", "one", "other", "other"]


def test_numbers_inside_sentences_agree() -> None:
    assert translate("resigned", "en", player="Bob", points=1) == "Bob resigns the game (1 point to the opponent)."
    assert translate("resigned", "en", player="Bob", points=2) == "Bob resigns the game (2 points to the opponent)."
    assert "1 πόντο)" in translate("resigned", "el", player="Bob", points=1)
    assert "2 πόντους" in translate("resigned", "el", player="Bob", points=2)
    assert translate("claim_too_early", "en", seconds=60) == "Your opponent still has about 1 minute to move."
    assert translate("claim_too_early", "en", seconds=300) == "Your opponent still has about 5 minutes to move."
    assert "περίπου 1 λεπτό " in translate("claim_too_early", "el", seconds=60)
    assert translate("top_header", "en", count=1) == "The top player here:"
    assert translate("top_header", "en", count=3) == "Top 3 players here:"
    assert translate("top_header", "el", count=3) == "Οι 3 καλύτεροι παίκτες εδώ:"
    assert "αγώνα 1 πόντου" in translate("challenge_open", "el", player="A", length=1, seconds=60, here="εδώ")
    assert "αγώνα 5 πόντων" in translate("challenge_open", "el", player="A", length=5, seconds=600, here="εδώ")
    for lang in ("en", "el"):  # no "(s)" or "/" plural is left in any message
        for key, text in _base(lang).items():
            assert "(s)" not in text and "πόντο/πόντους" not in text and "πόντος/πόντοι" not in text, key


@pytest.mark.parametrize(("seconds", "en", "el"), [
    (0.4, "1 second", "1 δευτερόλεπτο"),
    (10, "10 seconds", "10 δευτερόλεπτα"),
    (30, "30 seconds", "30 δευτερόλεπτα"),
    (59.5, "1 minute", "1 λεπτό"),
    (90, "1 minute", "1 λεπτό"),
    (45 * 60 + 30, "45 minutes", "45 λεπτά"),
    (3600, "1 hour", "1 ώρα"),
    (3600 + 60, "1 hour and 1 minute", "1 ώρα και 1 λεπτό"),
    (2 * 3600 + 5 * 60, "2 hours and 5 minutes", "2 ώρες και 5 λεπτά"),
])
def test_durations(seconds: int, en: str, el: str) -> None:
    assert (duration(seconds, "en"), duration(seconds, "el")) == (en, el)


def test_the_turn_reminder_has_no_zero_hours() -> None:
    text = translate("turn_reminder", "en", player="Bob", left=45 * 60, hours=0, minutes=45)
    assert text == "Bob, it is your turn: 45 minutes left before your opponent may claim the match."
    assert "0 h" not in text and "0 ώρ" not in translate("turn_reminder", "el", player="Bob", left=45 * 60)


def test_platform_words() -> None:
    telegram, discord = context_words("telegram", "en"), context_words("discord", "en")
    assert translate("no_game_here", "en", **telegram) == "You have no game in this chat."
    assert translate("no_game_here", "en", **discord) == "You have no game in this channel."
    greek = context_words("telegram", "el")
    assert translate("no_game_here", "el", **greek) == "Δεν έχεις παρτίδα σε αυτή τη συνομιλία."
    assert "this group" in translate("help_top", "en", **telegram) and "this server" in translate(
        "help_top", "en", **discord)
    on_telegram = translate("help", "en", **telegram).splitlines()[0]
    assert "Discord" not in on_telegram and "/fevga" not in on_telegram and "/challenge" in on_telegram
    assert "/fevga" in translate("help", "en", **discord).splitlines()[0]
    for lang in ("en", "el"):  # every message names the place through the platform words, never "channel"
        for key, text in _base(lang).items():
            if isinstance(text, str) and not key.startswith("word_"):
                assert "channel" not in text and "κανάλι" not in text, key


def test_second_person_for_the_terminal_player() -> None:
    words = context_words("terminal", "en")
    started = Msg("game_started", {"player0": "You", "player1": "AI", "length": 1, "opening": "5-3",
                                   "starter": "You", "commitment": "x"})
    assert "you start." in message_text(started, "en", words, you="You")
    assert "You starts" not in message_text(started, "en", words, you="You")
    assert "ξεκινάς εσύ" in message_text(started, "el", context_words("terminal", "el"), you="You")
    assert "AI starts" in message_text(Msg("game_started", {**started.args, "starter": "AI"}), "en", words, "You")
    won = Msg("game_won", {"player": "You", "game_no": 1, "points": 1, "score": "1-0"})
    assert message_text(won, "en", words, you="You") == "You win game 1 (1 point). Score 1-0."


def test_language_codes() -> None:
    assert [language_of(c) for c in ("el", "el-GR", "EL", "en", "de", "", None)] == \
        ["el", "el", "el", "en", "en", None, None]


def test_plural_entries_have_every_form_their_language_needs() -> None:
    for lang in ("en", "el"):
        for key, forms in plurals(lang).items():
            assert {plural_form(n, lang) for n in (0, 1, 2, 5, 21)} <= set(forms), (lang, key)


async def test_top_1000_is_answered_with_the_maximum() -> None:
    core = await BotCore.create(store=MemoryStore())
    try:
        handled = await core.handle_text(ALICE, GROUP, "top 1000")
        assert handled.word == "top"
        assert handled.replies[0].text == ("No rated matches of Fevga yet.\nOther games' boards: top portes, top "
                                           "plakoto, top tavli.\nA leaderboard shows at most 50 players.")
        assert not handled.replies[0].error
    finally:
        await core.close()


async def test_the_provisional_mark_is_explained() -> None:
    core = await BotCore.create(store=MemoryStore())
    try:
        place = Place("discord", "g", "c")
        a, b = PlayerRef("discord", "1", "Ann"), PlayerRef("discord", "2", "Ben")
        await core.handle_text(a, place, "challenge @ben", mentions={"@ben": b})
        accepted = await core.handle_text(b, place, "accept")
        game_id = next(r.game_id for r in accepted.replies if r.game_id)
        rng = random.Random(2)
        for _ in range(2):  # both players move: a resignation before that only calls the game off
            view = (await core.service.board(a, place)).view
            assert view is not None and view.game_id == game_id
            await core.handle_text(view.players[view.turn], place, a_legal_play_text(view, rng))
        await core.handle_text(a, place, "resign match yes")
        top = (await core.handle_text(a, place, "top")).replies[0].text
        assert "?" not in top and re.search(r"\d+\* \(", top), top
        assert top.splitlines()[-1].startswith("* provisional rating")
        stats = (await core.handle_text(a, place, "stats")).replies[0].text
        assert "1 match, 0 won, 1 lost" in stats and "* provisional rating" in stats
    finally:
        await core.close()


async def test_shared_and_personal_languages() -> None:
    """Greek Alice (language_code) and English Bob: game messages in the place's language, personal
    replies in each one's; a player's own settings are private."""
    core = await BotCore.create(store=MemoryStore())
    try:
        challenge = await core.handle_text(ALICE, GROUP, "challenge @bob", mentions={"@bob": BOB}, locale="el")
        assert challenge.replies[0].text.startswith("Alice challenges Bob")  # the group's language: English
        help_el = await core.handle_text(ALICE, GROUP, "help", locale="el")
        assert help_el.replies[0].text.startswith("Εντολές του bot για το τάβλι")
        mine = await core.handle_text(ALICE, GROUP, "settings autoplay on", locale="el")
        assert mine.replies[0].private and mine.replies[0].text == "Η ρύθμιση autoplay είναι τώρα on."
        listing = await core.handle_text(BOB, GROUP, "settings", locale="en")
        assert listing.replies[0].private
        place = await core.handle_text(BOB, GROUP, "settings place_lang el", is_admin=True)
        assert not place.replies[0].private  # a place setting is announced
        accepted = await core.handle_text(BOB, GROUP, "accept", locale="en")
        board = accepted.replies[0]
        assert board.game_id is not None and "Η παρτίδα αρχίζει" in board.text and "παίζει" in (board.caption or "")
        notice = await core.board_reply(board.game_id)
        assert notice is not None and "παίζει" in (notice[1].caption or "")
        assert (await core.language(BOB, GROUP)) == "en" and (await core.place_language(GROUP)) == "el"
        # Alice's language_code is remembered: her private chat speaks Greek even without her
        home = Place("telegram", "private:1", "1")
        assert await core.place_language(home) == "el"
    finally:
        await core.close()


async def test_the_terminal_says_you_start(tmp_path: Path) -> None:
    core = await BotCore.create(store=MemoryStore())
    try:
        out = io.StringIO()
        chat = ConsoleChat(core, board_dir=tmp_path, out=out)
        await chat.start()
        rng = random.Random(2)
        for _ in range(400):
            view = (await core.service.board(await chat.actor(), chat.place)).view
            if view is None or view.status != "play":
                break
            await chat.command(a_legal_play_text(view, rng))
        text = out.getvalue()
        assert "You starts" not in text and "You rolled" in text and "You wins" not in text
        assert "you start." in text or "AI (medium) starts" in text
    finally:
        await core.close()


async def test_the_terminal_says_you_win(tmp_path: Path) -> None:
    """Hot seat: the friend resigns on his turn, so the terminal's player wins: "You win", never "You wins",
    in the messages, the caption and the text board."""
    core = await BotCore.create(store=MemoryStore())
    try:
        out = io.StringIO()
        chat = ConsoleChat(core, board_dir=tmp_path, out=out)
        await chat.command("challenge friend")
        rng = random.Random(4)
        plays = 0
        while plays < 2 or (await chat.actor()) == chat.you:  # both moved (else resigning calls it off)
            view = (await core.service.board(chat.you, chat.place)).view
            assert view is not None
            await chat.command(a_legal_play_text(view, rng))
            plays += 1
        await chat.command("resign yes")
        text = out.getvalue()
        assert "You challenge Friend to a 1-point match" in text
        assert "you start." in text or "Friend starts." in text
        assert "You win game 1" in text and "You win (" in text, text[-600:]
        assert re.search(r"You win \(\d points?(, resignation)?\)", text)  # the text board's result line
        assert not re.search(r"\bYou (wins|starts|challenges|claims|rolls)\b", text)
    finally:
        await core.close()


def test_analysis_words_agree_with_their_numbers() -> None:
    """The analysis text is formatted by the engine (``str.format``); the catalogue's plurals still apply."""
    from bot.chat.analysis_reply import words

    args = {"name": "Ann", "n": 1, "forced": 0, "rate": "2.0", "band": "expert", "errors": 1, "blunders": 2}
    assert words("en")["player"].format(**args) == \
        "Ann: 1 decision (0 forced), error rate 2.0 (expert), 1 error, 2 blunders"
    assert words("el")["player"].format(**{**args, "n": 5, "errors": 3, "blunders": 1}) == \
        "Ann: 5 αποφάσεις (0 αναγκαστικές), ποσοστό λάθους 2.0 (expert), 3 λάθη, 1 χοντρό λάθος"


@pytest.mark.parametrize("lang", ["en", "el"])
def test_the_fast_path_fills_every_template_as_the_full_formatter_does(lang: str) -> None:
    """Templates without ``@``/``?``/``#`` fields go to ``str.format_map``: every catalogue entry, filled with
    a number, a word or nothing for each of its fields, reads the same as through ``string.Formatter``."""
    fast_ones = 0
    for template in bot.i18n.catalogue(lang).values():
        names = {n.split(".")[0].split("[")[0] for _, n, _, _ in string.Formatter().parse(template) if n}
        fast_ones += bot.i18n._plain(template)
        for value in (3, "Zoë", None):
            args = {name: value for name in names if value is not None}
            try:
                slow = bot.i18n._Formatter(lang).vformat(template, (), bot.i18n._Args(args, lang))
            except (ValueError, IndexError, KeyError, AttributeError, TypeError):
                slow = template
            assert bot.i18n.render(template, lang, **args) == slow, template
    assert fast_ones > 100  # most messages take the fast path
    assert not bot.i18n._plain("{n:@matches}") and not bot.i18n._plain("{x:?mark}") and bot.i18n._plain("{x:>4}")


def test_the_boards_words_are_looked_up_once_and_again_after_a_catalogue_changes() -> None:
    from bot.chat.presenter import board_labels
    from bot.i18n import register

    before = board_labels("xq")  # a language with no catalogue: the English words
    assert board_labels("xq") is before  # the same tuple: looked up once
    assert dict(before)["wins"] == dict(board_labels("en"))["wins"]
    register("xq", {"board_wins": "gagne"})
    after = board_labels("xq")
    assert after is not before and dict(after)["wins"] == "gagne"


def test_a_word_field_after_a_plural_reads_the_message_s_arguments() -> None:
    """``{x:@plural}`` fills its entry with its own ``{n}``; a ``{k:#prefix_}`` field after it still sees the
    message's arguments (it saw only ``n``, and showed "?" for the rest)."""
    from bot.i18n import translate

    said = translate("stats", "en", player="Ann", rating=1500, prov=False, rd=80, rank=1, of=2, games=3, wins=1,
                     losses=2, points=1, mars=0, streak=-2, lost=2, best=1, streak_kind="lost")
    assert "streak: 2 lost in a row" in said and "?" not in said, said


async def test_the_analysis_is_signed_by_the_ai_in_the_reader_s_language() -> None:
    """ "Analysis by AI (hard)" / "Ανάλυση από τον Υπολογιστή (δύσκολο)": the judging level as the AI is named
    elsewhere (it said "Ανάλυση από hard"); another judge (``neural1``) keeps its name."""
    from bot.chat.analysis_reply import analysis_reply
    from fevga.analysis import PlayerReport, Report

    quiet = PlayerReport(10, 0, 0.0, 0, 0, 0.0, None, ())
    for judge, lang, title in (("hard", "el", "Ανάλυση από τον Υπολογιστή (δύσκολο)"),
                               ("hard", "en", "Analysis by AI (hard)"), ("neural1", "el", "Ανάλυση από neural1")):
        report = Report(judge, None, "..", (quiet, quiet), (0, 0))
        reply = await analysis_reply({"report": report.to_dict(), "names": ["ann", "bob"], "game_id": "g1"}, lang,
                                     draw=False)
        assert title in reply.text, reply.text


def test_typed_forms_in_a_telegram_group_have_their_slash() -> None:
    """Where a Telegram group passes the bot only /commands, the texts that say what to type say it with the
    slash ("/resign yes", "/tournament join", "/lang el"); Discord and the terminal keep the bare words."""
    from bot.chat.presenter import context_words

    for key, words in (("resign_confirm_how", "resign yes"), ("cmd_bad_lang", "lang el")):
        for lang in ("en", "el"):
            telegram = translate(key, lang, languages="en, el", **context_words("telegram", lang))
            discord = translate(key, lang, languages="en, el", **context_words("discord", lang))
            assert f"/{words}" in telegram and f"/{words}" not in discord and words in discord, (key, lang)

"""Every span of time the bot shows goes through the one duration helper, so a duration under a minute has
its own words ("30 seconds", never "0 minutes"): challenge lifetimes, deadlines, claims too early, reminders
and settings answers, in English and Greek."""

from __future__ import annotations

import string

import pytest
from pydantic import SecretStr

from bot.chat.core import BotCore
from bot.config import Settings
from bot.i18n import LANGUAGES, catalogue, translate
from bot.service import Place, PlayerRef
from bot.storage import MemoryStore

from .conftest import FakeClock

A = PlayerRef("discord", "1", "Alice")
B = PlayerRef("discord", "2", "Bob")
HERE = Place("discord", "g", "c")
TIME_FIELDS = ("seconds", "left", "minutes", "hours")  # arguments that carry a span of time
ZERO = {"en": ("0 minutes", "0 hours"), "el": ("0 λεπτά", "0 ώρες")}
THIRTY = {"en": "30 seconds", "el": "30 δευτερόλεπτα"}


def test_every_time_argument_in_the_catalogue_is_worded_by_the_duration_helper() -> None:
    for lang in LANGUAGES:
        for key, template in catalogue(lang).items():
            if key == "duration_both":  # the helper's own "{hours} and {minutes}"
                continue
            for _literal, field, spec, _conversion in string.Formatter().parse(template):
                if field in TIME_FIELDS:
                    assert spec == "@duration", f"{lang} {key}: {{{field}:{spec}}} is not worded as a duration"


async def core_with(ttl_minutes: float, clock: FakeClock, **options: float) -> BotCore:
    """A core with the challenge lifetime FEVGA_CHALLENGE_TTL_MINUTES would give it."""
    settings = Settings(_env_file=None, telegram_token=SecretStr("1:x"),  # type: ignore[call-arg]
                        fevga_challenge_ttl_minutes=ttl_minutes)
    return await BotCore.create(store=MemoryStore(), clock=clock, draw=False,
                                challenge_ttl=settings.fevga_challenge_ttl_minutes * 60, **options)


async def said(core: BotCore, actor: PlayerRef, text: str, lang: str) -> str:
    handled = await core.handle_text(actor, HERE, text, mentions={"@bob": B, "@alice": A}, is_admin=True,
                                     locale=lang)
    return "\n".join(reply.text for reply in handled.replies)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_half_minute_challenge_says_thirty_seconds(lang: str) -> None:
    core = await core_with(0.5, FakeClock())
    await said(core, A, f"settings place_lang {lang}", lang)
    text = await said(core, A, "challenge @bob", lang)
    assert THIRTY[lang] in text, text
    assert not any(zero in text for zero in ZERO[lang]), text
    again = await said(core, A, "challenge @bob", lang)  # the same challenge, still open: how long it has left
    assert THIRTY[lang] in again, again


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_claim_too_early_says_the_seconds_left(lang: str) -> None:
    clock = FakeClock()
    core = await core_with(10, clock, turn_deadline=75)
    await said(core, A, f"settings place_lang {lang}", lang)
    await said(core, A, "challenge @bob", lang)
    await said(core, B, "accept", lang)
    [mover] = [p for p in (A, B) if await core.turn_of(HERE, [p]) == p]
    clock.advance(45)
    text = await said(core, B if mover == A else A, "claim", lang)
    assert THIRTY[lang] in text, text  # 75 s deadline, 45 s gone


@pytest.mark.parametrize(("lang", "changed", "listed"), [
    ("en", "Setting deadline_hours is now 0.05 (3 minutes).", "deadline_hours: 0.05 (3 minutes)"),
    ("el", "Η ρύθμιση deadline_hours είναι τώρα 0.05 (3 λεπτά).", "deadline_hours: 0.05 (δηλαδή 3 λεπτά)"),
])
async def test_settings_answers_word_the_deadline(lang: str, changed: str, listed: str) -> None:
    core = await core_with(10, FakeClock())
    await said(core, A, f"lang {lang}", lang)
    text = await said(core, A, "settings deadline 0.05", lang)
    assert changed in text, text
    assert translate("unrated_deadline", lang, seconds=3600) in text  # "shorter than 1 hour"
    assert listed in await said(core, A, "settings", lang)


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Bob, it is your turn: 18 seconds left before your opponent may claim the match."),
    ("el", "Bob, είναι η σειρά σου: έχεις ακόμη 18 δευτερόλεπτα πριν ο αντίπαλος μπορέσει να διεκδικήσει τον αγώνα."),
])
def test_a_reminder_under_a_minute_says_seconds(lang: str, expected: str) -> None:
    assert translate("turn_reminder", lang, player="Bob", left=18) == expected

"""``/tournament create``: the admin's form (a modal of discord.py's UI classes), through the real
discord.py stack and the fake Discord's interaction payloads: the form opens for an admin (not for a
member), a submitted form opens the event with its values, and a bad value is refused with the typed
command's message, creating nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.chat.presenter import context_words
from bot.discord.tournament_form import form_line
from bot.i18n import translate
from bot.service import Place
from tests.fakes.discord import FakeDiscord, modal_held

from .conftest import World

pytestmark = pytest.mark.timeout(60)


def test_form_line_takes_first_words_and_defaults() -> None:
    assert form_line({"kind": " knockout ", "rounds": "", "points": "5 points", "deadline": "2d", "rated": "unrated"}) \
        == "tournament create knockout rounds 5 points 5 deadline 2d unrated"
    assert form_line({"kind": "swiss πόρτες extra", "rounds": "3"}) \
        == "tournament create swiss πόρτες rounds 3 points 3 deadline 24h rated"  # the kind's field names the game


async def test_admin_form_creates_the_event(fake: FakeDiscord, bot: Any, core: Any, world: World) -> None:
    w = world
    place = Place("discord", str(w.guild.id), str(w.general.id))
    refused = await (await fake.slash_command(w.bob, w.general, "tournament create")).response()
    assert refused.type == 4 and refused.data["flags"] & 64  # ephemeral: only an admin opens the form
    assert refused.data["content"] == translate("tournament_admin_only", "en", **context_words("discord", "en"))
    dm = fake.dm_channel(w.alice.user)
    in_dm = await (await fake.slash_command(w.alice.user, dm, "tournament create")).response()
    assert in_dm.data["content"] == translate("tournament_private", "en")  # not "admins only": the place is wrong

    opened = await fake.slash_command(w.alice, w.general, "tournament create", locale="el")
    modal = await opened.response()
    assert modal.type == 9 and modal.data["custom_id"] == "fevga:tform"
    inputs = [c["components"][0] for c in modal.data["components"]]
    assert [i["custom_id"] for i in inputs] == ["tform:kind", "tform:rounds", "tform:points", "tform:deadline",
                                                "tform:rated"]
    assert inputs[0]["label"] == "Είδος και παιχνίδι, π.χ. swiss πόρτες" and inputs[0]["value"] == "swiss"
    await modal_held(fake, bot, "fevga:tform")

    bad = await fake.submit_modal(w.alice, w.general, "fevga:tform", {
        "tform:kind": "swiss", "tform:rounds": "3", "tform:points": "3", "tform:deadline": "5m",
        "tform:rated": "rated"})  # fmt: skip
    assert translate("tournament_bad_deadline", "en") in (await bad.original()).content  # submitted from en-US
    assert (await core.service.tournaments.current(place))[1] is None  # nothing was created

    assert (await (await fake.slash_command(w.alice, w.general, "tournament create")).response()).type == 9
    await modal_held(fake, bot, "fevga:tform")
    good = await fake.submit_modal(w.alice, w.general, "fevga:tform", {
        "tform:kind": "knockout portes", "tform:rounds": "", "tform:points": "5", "tform:deadline": "2d",
        "tform:rated": "unrated"})  # fmt: skip
    assert "is open" in (await good.original()).content
    _v, t = await core.service.tournaments.current(place)
    assert t is not None and (t.kind, t.points, t.deadline_secs, t.rated) == ("knockout", 5, 2 * 86400, False)
    assert t.game == "portes" and "Portes" in (await good.original()).content
    assert not fake.failed_calls()

"""Per-server settings need Manage Server; the list is an embed; names are offered as you type."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakes.discord import FakeDiscord

from .conftest import World

pytestmark = pytest.mark.timeout(60)


async def test_only_members_with_manage_server_change_server_settings(
    fake: FakeDiscord, bot: Any, world: World
) -> None:
    w = world
    typing = await fake.autocomplete(w.carol, w.general, "fevga settings", {"name": "dead"}, focused="name")
    assert [c["value"] for c in (await typing.response()).choices] == ["deadline_hours"]

    change = {"name": "deadline_hours", "value": "12"}
    refused = await fake.slash_command(w.carol, w.general, "fevga settings", change)
    assert (await refused.response()).ephemeral and (await refused.original()).content

    allowed = await fake.slash_command(w.alice, w.general, "fevga settings", change)
    assert not (await allowed.response()).ephemeral

    listing = await (await fake.slash_command(w.carol, w.general, "fevga settings")).original()
    (embed,) = listing.embeds
    assert "12" in f"{embed.get('title', '')} {embed.get('description', '')}"
    assert not fake.failed_calls()

"""Words of the page's state: a seat whose name already is the word "you" (the terminal's "You"/"Εσύ", in
any case) is flagged, so the page writes no "(you)" after it; a real name is not."""

from __future__ import annotations

from bot.chat.core import BotCore
from bot.service.models import Place, PlayerRef

from .kit import Site, start_game


async def test_a_name_that_says_you_is_flagged(site: Site, core: BotCore) -> None:
    gid = await start_game(core, PlayerRef("telegram", "101", "YOU"), PlayerRef("telegram", "102", " Εσύ"))
    assert [seat["named_you"] for seat in (await site.state(gid))["seats"]] == [True, True]
    real = (PlayerRef("telegram", "103", "Carol"), PlayerRef("telegram", "104", "Youssef"))
    gid = await start_game(core, *real, place=Place("telegram", "-1002", "-1002"))
    assert [seat["named_you"] for seat in (await site.state(gid))["seats"]] == [False, False]

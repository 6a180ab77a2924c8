"""Words of the page's state: a seat whose name already is the word "you" (the terminal's "You"/"Εσύ", in
any case) is flagged, so the page writes no "(you)" after it; a real name is not. The page has the board's
match-line words, so its match line reads as the board's and the terminal's."""

from __future__ import annotations

from bot.chat.core import BotCore
from bot.i18n import catalogue
from bot.service.models import Place, PlayerRef
from bot.web.state import strings

from .kit import Site, start_game


async def test_a_name_that_says_you_is_flagged(site: Site, core: BotCore) -> None:
    gid = await start_game(core, PlayerRef("telegram", "101", "YOU"), PlayerRef("telegram", "102", " Εσύ"))
    assert [seat["named_you"] for seat in (await site.state(gid))["seats"]] == [True, True]
    real = (PlayerRef("telegram", "103", "Carol"), PlayerRef("telegram", "104", "Youssef"))
    gid = await start_game(core, *real, place=Place("telegram", "-1002", "-1002"))
    assert [seat["named_you"] for seat in (await site.state(gid))["seats"]] == [False, False]


def test_the_page_has_the_boards_match_line_words_in_both_languages() -> None:
    for lang in ("en", "el"):
        page = strings(lang)
        for key in ("board_tavli_game", "board_match_game"):  # the match line as the board and terminal say it
            assert page[key] == catalogue(lang)[key], (lang, key)
    assert strings("el")["board_tavli_game"] == "παρτίδα {n} · τάβλι στα {length}"
    assert strings("en")["board_tavli_game"] == "game {n} of tavli to {length}"

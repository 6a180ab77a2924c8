"""Signed game links and Telegram initData: what is accepted, and everything forged that is refused."""

from __future__ import annotations

import json
import re
import time

from hypothesis import given
from hypothesis import strategies as st

from bot.web.initdata import InitDataError, secret_key, sign_init_data, verify_init_data
from bot.web.links import WebLinks, compact, derive_key, sign, verify

from .kit import ALICE, BOT_TOKEN, init_data

KEY = derive_key("a-secret-of-enough-length")


def test_a_signed_link_names_its_game_and_only_it() -> None:
    token = sign(KEY, "GotKHqeG")
    assert verify(KEY, token) == "GotKHqeG"
    _gid, sig = token.split(".")
    assert len(sig) == 22
    assert verify(KEY, "Other123." + sig) is None  # another game's id with this signature
    assert verify(KEY, token[:-1]) is None and verify(KEY, token + "A") is None
    assert verify(derive_key("another-secret-0123456"), token) is None
    for bad in ("", ".", "GotKHqeG", "GotKHqeG.", "a.b.c", "../x." + sig, "Gö.x" + sig, "x" * 200, sig,
                sig + "Other123", sig[:-1] + "GotKHqeG"):
        assert verify(KEY, bad) is None
    short = compact(KEY, "GotKHqeG")  # Telegram's startapp form: no dot
    assert short == sig + "GotKHqeG" and re.fullmatch(r"[\w-]{1,512}", short) and verify(KEY, short) == "GotKHqeG"


def test_the_key_comes_from_the_secret_else_the_tokens_else_chance() -> None:
    assert derive_key("s" * 16) == derive_key("s" * 16) != derive_key("t" * 16)
    assert derive_key(None, "tg-token", None) == derive_key(None, "tg-token", None) != derive_key(None, "x", None)
    assert derive_key(None) != derive_key(None)  # the terminal chat: random per process


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789-_", min_size=1, max_size=12),
       st.text(min_size=0, max_size=30))
def test_no_made_up_signature_is_accepted(gid: str, sig: str) -> None:
    assert verify(KEY, sign(KEY, gid)) == gid
    if sig != sign(KEY, gid).split(".")[1]:
        assert verify(KEY, f"{gid}.{sig}") is None


def test_links_for_the_chats() -> None:
    links = WebLinks(KEY, "https://fevga.example", "fevga_bot", "board")
    token = links.token("GotKHqeG")
    assert links.page("GotKHqeG") == f"https://fevga.example/g/{token}"
    assert links.group_link("GotKHqeG") == f"https://t.me/fevga_bot/board?startapp={compact(KEY, 'GotKHqeG')}"
    assert WebLinks(KEY, "https://fevga.example").group_link("GotKHqeG") == links.page("GotKHqeG")


def test_telegram_init_data_is_verified() -> None:
    user = verify_init_data(init_data(ALICE), secret_key(BOT_TOKEN))
    assert user.player == ALICE and user.language == "en"


def _refused(raw: str, code: str = "bad_init_data", **kw: float) -> None:
    try:
        verify_init_data(raw, secret_key(BOT_TOKEN), **kw)  # type: ignore[arg-type]
    except InitDataError as exc:
        assert exc.code == code
    else:
        raise AssertionError(f"accepted {raw!r}")


def test_forged_init_data_is_refused() -> None:
    good = init_data(ALICE)
    _refused(init_data(ALICE, token="999:another-bot"))  # signed by another bot
    changed = good.replace("%22id%22%3A+101", "%22id%22%3A+102")
    assert changed != good
    _refused(changed)  # the user changed after signing
    _refused(good + "&auth_date=1")  # a field repeated
    _refused(good.replace("hash=", "hash=0"))
    _refused("")
    _refused("user=1&hash=abc")
    fields = {"auth_date": str(int(time.time())), "user": "not json"}
    _refused(sign_init_data(fields, secret_key(BOT_TOKEN)))
    _refused(sign_init_data({"auth_date": "x", "user": json.dumps({"id": 1})}, secret_key(BOT_TOKEN)))


def test_old_or_future_init_data_is_refused() -> None:
    _refused(init_data(ALICE, age=3601), "init_data_expired")
    _refused(init_data(ALICE, age=-600), "init_data_expired")
    verify_init_data(init_data(ALICE, age=3500), secret_key(BOT_TOKEN))

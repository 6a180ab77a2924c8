"""Replies become valid Discord messages: boards as embeds with the picture, buttons within the limits."""

from __future__ import annotations

import discord
import pytest

from bot.delivery.replies import Button, Reply
from bot.discord.components import TokenButton, TokenSelect, component_view
from bot.discord.rendering import board_message, outgoing, text_message
from bot.service.button_kinds import ButtonKind
from bot.service.models import PlayerRef

PNG = b"\x89PNG\r\n\x1a\nfake"


def _step(point: int, die: int = 6) -> Button:
    return Button(f"{point}→{point + die}", f"S.g1.7.{point}.{die}", ButtonKind.STEP, row=0)


def test_step_buttons_become_a_select_whose_values_are_the_tokens() -> None:
    buttons = (
        *(_step(p) for p in (1, 5, 9)),
        Button("Undo", "U.g1.7", ButtonKind.UNDO, row=2),
        Button("Resign", "R.g1.7", ButtonKind.RESIGN, "danger", row=2),
    )
    view = component_view(buttons, "el")
    assert view is not None
    rows = view.to_components()
    select = rows[0]["components"][0]
    assert select["type"] == 3
    assert [o["value"] for o in select["options"]] == ["S.g1.7.1.6", "S.g1.7.5.6", "S.g1.7.9.6"]
    assert [o["label"] for o in select["options"]] == ["1→7", "5→11", "9→15"]
    assert select["custom_id"].startswith("fvs:step:")
    assert select["placeholder"] == "Μετακίνησε ένα πούλι…"
    plain = rows[1]["components"]
    assert [(b["custom_id"], b["style"]) for b in plain] == [("fv:undo:U.g1.7", 2), ("fv:resign:R.g1.7", 4)]


def test_layout_stays_within_five_rows_of_five() -> None:
    others = tuple(Button(f"b{i}", f"t{i}", ButtonKind.HINT, row=i) for i in range(12))
    buttons = others + tuple(_step(p, 1) for p in range(1, 25))
    view = component_view(buttons)
    assert view is not None
    rows = view.to_components()
    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
    assert rows[0]["components"][0]["type"] == 3 and len(rows[0]["components"][0]["options"]) == 24
    ids = [c["custom_id"] for r in rows for c in r["components"]]
    assert len(ids) == len(set(ids))


def test_more_than_25_steps_are_split_over_selects_and_no_buttons_give_no_view() -> None:
    steps = tuple(_step(p, d) for p in range(1, 6) for d in range(1, 7))  # 30 steps
    view = component_view(steps)
    assert view is not None
    sizes = [len(r["components"][0]["options"]) for r in view.to_components()]
    assert sizes == [25, 5]
    assert component_view(()) is None


def test_dynamic_items_parse_their_own_custom_ids() -> None:
    button = TokenButton("g9:3:confirm", kind="resign_confirm", label="x" * 200)
    assert button.custom_id == "fv:resign_confirm:g9:3:confirm" and len(button.item.label or "") == 80
    match = TokenButton.__discord_ui_compiled_template__.fullmatch(button.custom_id)
    assert match is not None and (match["kind"], match["token"]) == ("resign_confirm", "g9:3:confirm")
    select = TokenSelect("step", [discord.SelectOption(label="1", value="a")])
    assert TokenSelect.__discord_ui_compiled_template__.fullmatch(select.item.custom_id or "") is not None
    longest = TokenButton("x" * 64, kind="k" * 20)
    assert len(longest.custom_id) <= 100


def test_board_is_an_embed_showing_the_attached_picture() -> None:
    bob = PlayerRef("discord", "77", "bob")
    reply = Reply(
        "alice played 1/7 7/12\nscore 0-0",
        image=PNG,
        image_name="board.png",
        buttons=(Button("Undo", "t:u", ButtonKind.UNDO),),
        game_id="g1",
        version=4,
        caption="alice vs bob · bob to play 6-2",
        mention=(bob, PlayerRef("telegram", "5", "tg")),
    )
    out = outgoing(reply)
    assert out.embed is not None and out.embed.title == "alice vs bob · bob to play 6-2"
    assert out.embed.description == "alice played 1/7 7/12\nscore 0-0"
    assert out.embed.image.url == "attachment://board.png"
    assert out.content == "<@77>" and out.mention_ids == [77]
    assert [f.filename for f in out.files()] == ["board.png"] and out.files()[0].fp.read() == PNG
    edit = out.edit_kwargs()
    assert edit["view"] is out.view and [f.filename for f in edit["attachments"]] == ["board.png"]


@pytest.mark.parametrize("command", ["top", "stats", "settings"])
def test_leaderboards_and_stats_are_embeds(command: str) -> None:
    out = outgoing(Reply("Leaderboard\n1. alice 1510\n2. bob 1490"), command=command)
    assert out.content is None and out.embed is not None
    assert out.embed.title == "Leaderboard" and out.embed.description == "1. alice 1510\n2. bob 1490"


def test_long_text_moves_into_an_embed_and_short_text_stays_content() -> None:
    assert text_message(Reply("hello")).content == "hello"
    long = text_message(Reply("Help\n" + "x" * 2500))
    assert long.content is None and long.embed is not None and len(long.embed.description or "") == 2500
    export = text_message(Reply("your game", document=b"; mat", document_name="game.mat"))
    assert [f.filename for f in export.files()] == ["game.mat"]


def test_error_board_replies_are_shown_as_text() -> None:
    out = board_message(Reply("", image=PNG, game_id="g", version=None))
    assert out.embed is not None and out.embed.footer.text == "g"
    error = outgoing(Reply("not your turn", game_id="g", error=True, private=True))
    assert error.embed is None and error.content == "not your turn"

"""The core's buttons as persistent Discord components: ``DynamicItem`` buttons and select menus.

A custom id carries the button's kind and the core's opaque token (game id and state version inside),
so a button keeps working after a restart and an outdated one is answered by the core ("this button is
out of date").
``step`` buttons (move a checker from a point with a die) become select menus whose option values are
the tokens, 25 to a menu; every other kind stays a button.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from typing import Any, Protocol, cast

import discord

from bot.delivery.replies import Button
from bot.service.button_kinds import ButtonKind

from .command_text import text

MAX_ROWS, MAX_PER_ROW, MAX_OPTIONS = 5, 5, 25
MAX_LABEL, MAX_OPTION_LABEL = 80, 100
SELECT_KINDS: tuple[ButtonKind, ...] = (ButtonKind.STEP,)
_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class PressHandler(Protocol):
    """What a component hands its token to (the bot's ``DiscordFrontend``)."""

    async def on_press(self, interaction: discord.Interaction, token: str) -> None: ...


def _handler(interaction: discord.Interaction) -> PressHandler:
    return cast(PressHandler, interaction.client.frontend)  # type: ignore[attr-defined]


def _clip(label: str, limit: int) -> str:
    label = label.strip() or "·"
    return label if len(label) <= limit else label[: limit - 1] + "…"


class TokenButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"fv:(?P<kind>[a-z_]{1,20}):(?P<token>.+)"):
    """A button whose custom id is ``fv:<kind>:<core token>`` (at most 3 + 21 + 64 = 88 characters)."""

    def __init__(
        self,
        token: str,
        *,
        kind: str = "button",
        label: str = "·",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        custom_id = f"fv:{kind}:{token}"
        super().__init__(discord.ui.Button(label=_clip(label, MAX_LABEL), style=style, custom_id=custom_id))
        self.kind = kind
        self.token = token

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TokenButton:
        button = cast(discord.ui.Button[Any], item)
        return cls(match["token"], kind=match["kind"], label=button.label or "·", style=button.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).on_press(interaction, self.token)


class TokenSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"fvs:(?P<kind>[a-z]+):(?P<tag>[0-9a-f]+)"):
    """A select menu whose options' values are core tokens (a checker's point and a die each)."""

    def __init__(self, kind: str, options: Sequence[discord.SelectOption], placeholder: str | None = None) -> None:
        tag = format(zlib.crc32("\n".join(o.value for o in options).encode()), "x")
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"fvs:{kind}:{tag}", options=list(options), placeholder=placeholder, min_values=1, max_values=1
        )
        super().__init__(select)
        self.kind = kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TokenSelect:
        select = cast(discord.ui.Select[Any], item)
        made = cls(match["kind"], select.options or [discord.SelectOption(label="·", value="·")], select.placeholder)
        made.item.custom_id = select.custom_id  # keep the id the message carries
        return made

    async def callback(self, interaction: discord.Interaction) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = list(self.item.values) or [str(v) for v in data.get("values", [])]
        if values:
            await _handler(interaction).on_press(interaction, str(values[0]))


def _shown_ids(message: discord.Message) -> set[str]:
    ids: set[str] = set()
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        if getattr(component, "custom_id", None):
            ids.add(component.custom_id)
        stack.extend(getattr(component, "children", None) or [])
    return ids


def orphan_token(interaction: discord.Interaction) -> str | None:
    """The token of a click on one of our components that the message no longer shows (the player's
    client had not yet seen an edit). discord.py ignores such clicks; the core should call them stale."""
    data = cast(dict[str, Any], interaction.data or {})
    custom_id = str(data.get("custom_id") or "")
    message = interaction.message
    if interaction.type is not discord.InteractionType.component or message is None:
        return None
    if custom_id in _shown_ids(message):
        return None
    button = TokenButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    if button is not None:
        return button["token"]
    values = data.get("values") or []
    if TokenSelect.__discord_ui_compiled_template__.fullmatch(custom_id) and values:
        return str(values[0])
    return None


def _select(kind: ButtonKind, buttons: Sequence[Button], lang: str) -> TokenSelect:
    options = [discord.SelectOption(label=_clip(b.label, MAX_OPTION_LABEL), value=b.token) for b in buttons]
    return TokenSelect(str(kind), options, text(f"ui.{kind}", lang))


def _button_rows(buttons: Sequence[Button], free_rows: int) -> list[list[Button]]:
    """Buttons grouped by their ``row`` (5 to a row); rows merged when there are too many."""
    rows: list[list[Button]] = []
    for row in sorted({b.row for b in buttons}):
        same = [b for b in buttons if b.row == row]
        rows.extend(same[i : i + MAX_PER_ROW] for i in range(0, len(same), MAX_PER_ROW))
    if len(rows) > free_rows:
        flat = [b for row in rows for b in row]
        rows = [flat[i : i + MAX_PER_ROW] for i in range(0, len(flat), MAX_PER_ROW)][:free_rows]
    return rows


def component_view(buttons: Sequence[Button], lang: str = "en") -> discord.ui.View | None:
    """A persistent view for a reply's buttons, within Discord's 5 rows of 5; None without buttons."""
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    row = 0
    for kind in SELECT_KINDS:
        chosen = [b for b in buttons if b.kind == kind]
        for start in range(0, len(chosen), MAX_OPTIONS):
            if row >= MAX_ROWS - 1:
                break  # keep a row for the buttons (undo, confirm, resign)
            item = _select(kind, chosen[start : start + MAX_OPTIONS], lang)
            item.row = row
            view.add_item(item)
            row += 1
    plain = [b for b in buttons if b.kind not in SELECT_KINDS]
    for group in _button_rows(plain, MAX_ROWS - row):
        for b in group:
            style = _STYLES.get(b.style, discord.ButtonStyle.secondary)
            item_b = TokenButton(b.token, kind=str(b.kind), label=b.label, style=style)
            item_b.row = row
            view.add_item(item_b)
        row += 1
    return view if view.children else None

"""``/fevga ...``: every command of the command language as a hybrid command (slash and prefix).

A slash command's options are written back as one command-language line for the core. The prefix
form (``!fevga challenge @bob 5``) hands the core the text exactly as typed, so it reads the same as
on every other chat. (The ``type: ignore``s: mypy cannot type hybrid_command's callback union.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands.grammar import COMMANDS
from bot.service.game_words import AI_LEVELS, MATCH_KINDS
from bot.service.settings import SETTINGS

from . import lines
from .command_text import described
from .frontend import DiscordFrontend

Ctx = commands.Context[Any]
Points = app_commands.Range[int, 1, 25]
Count = app_commands.Range[int, 1, 50]
GAMES = [app_commands.Choice(name=described(f"game.{kind}"), value=kind) for kind in MATCH_KINDS]
"""The game option's choices (fevga, portes, plakoto, tavli), their names in the member's language."""
LEVELS = [app_commands.Choice(name=described(f"level.{level}"), value=level) for level in AI_LEVELS]
"""The AI level option's choices, their names in the member's language."""


class FevgaCog(commands.GroupCog, group_name="fevga", group_description=described("group")):
    """The ``fevga`` command group; all work is done by the ``DiscordFrontend`` and the core."""

    def __init__(self, frontend: DiscordFrontend) -> None:
        self.frontend = frontend
        super().__init__()

    async def run(self, ctx: Ctx, line: str, users: Iterable[discord.abc.User | None] = ()) -> None:
        """Slash: the line built from the options. Prefix: the message as typed after the prefix."""
        if ctx.interaction is not None:
            await self.frontend.on_slash(ctx.interaction, line, [u for u in users if u is not None])
        else:
            await self.frontend.on_prefix(ctx.message, lines.prefix_line(ctx.message.content, ctx.prefix or ""))

    @commands.hybrid_command(name="help", description=described("help"))  # type: ignore[arg-type]
    @app_commands.describe(topic=described("help.topic"))
    async def help_(self, ctx: Ctx, topic: str | None = None) -> None:
        await self.run(ctx, lines.help_line(topic))

    @help_.autocomplete("topic")
    async def help_topics(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Every command as a help topic (more than Discord's 25 fixed choices: offered as the member types)."""
        typed = current.strip().lower()
        return [app_commands.Choice(name=c, value=c) for c in COMMANDS if typed in c][:25]

    @commands.hybrid_command(name="rules", description=described("rules"))  # type: ignore[arg-type]
    @app_commands.describe(game=described("game"))
    @app_commands.choices(game=GAMES)
    async def rules(self, ctx: Ctx, game: str | None = None) -> None:
        await self.run(ctx, lines.rules_line(game))

    @commands.hybrid_command(name="challenge", description=described("challenge"))  # type: ignore[arg-type]
    @app_commands.describe(
        user=described("challenge.user"),
        game=described("game"),
        points=described("challenge.points"),
        unlock=described("challenge.unlock"),
        strict=described("challenge.strict"),
    )
    @app_commands.choices(game=GAMES)
    async def challenge(
        self,
        ctx: Ctx,
        user: discord.User | None = None,
        game: str | None = None,
        points: Points | None = None,
        unlock: Literal[13, 14] | None = None,
        strict: bool | None = None,
    ) -> None:
        line = lines.challenge_line(user.id if user else None, points, unlock, strict, game)
        await self.run(ctx, line, [user])

    @commands.hybrid_command(name="accept", description=described("accept"))  # type: ignore[arg-type]
    @app_commands.describe(challenge=described("challenge_id"))
    async def accept(self, ctx: Ctx, challenge: str | None = None) -> None:
        await self.run(ctx, lines.with_id_line("accept", challenge))

    @commands.hybrid_command(name="decline", description=described("decline"))  # type: ignore[arg-type]
    @app_commands.describe(challenge=described("challenge_id"))
    async def decline(self, ctx: Ctx, challenge: str | None = None) -> None:
        await self.run(ctx, lines.with_id_line("decline", challenge))

    @commands.hybrid_command(name="cancel", description=described("cancel"))  # type: ignore[arg-type]
    @app_commands.describe(challenge=described("challenge_id"))
    async def cancel(self, ctx: Ctx, challenge: str | None = None) -> None:
        await self.run(ctx, lines.with_id_line("cancel", challenge))

    @commands.hybrid_command(name="play", description=described("play"))  # type: ignore[arg-type]
    @app_commands.describe(game=described("game"), level=described("play.level"), points=described("play.points"))
    @app_commands.choices(game=GAMES, level=LEVELS)
    async def play(
        self,
        ctx: Ctx,
        game: str | None = None,
        level: str | None = None,
        points: Points | None = None,
    ) -> None:
        await self.run(ctx, lines.play_ai_line(level, points, game))

    @commands.hybrid_command(name="move", description=described("move"))  # type: ignore[arg-type]
    @app_commands.describe(play=described("move.play"))
    async def move(self, ctx: Ctx, *, play: str) -> None:
        await self.run(ctx, lines.move_line(play))

    @move.autocomplete("play")
    async def move_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        plays = await self.frontend.play_choices(interaction, current)
        return [app_commands.Choice(name=p, value=p) for p in plays]

    @commands.hybrid_command(name="undo", description=described("undo"))  # type: ignore[arg-type]
    async def undo(self, ctx: Ctx) -> None:
        await self.run(ctx, "undo")

    @commands.hybrid_command(name="confirm", description=described("confirm"))  # type: ignore[arg-type]
    async def confirm(self, ctx: Ctx) -> None:
        await self.run(ctx, "confirm")

    @commands.hybrid_command(name="board", description=described("board"))  # type: ignore[arg-type]
    async def board(self, ctx: Ctx) -> None:
        await self.run(ctx, "board")

    @commands.hybrid_command(name="hint", description=described("hint"))  # type: ignore[arg-type]
    async def hint(self, ctx: Ctx) -> None:
        await self.run(ctx, "hint")

    @commands.hybrid_command(name="resign", description=described("resign"))  # type: ignore[arg-type]
    @app_commands.describe(match=described("resign.match"))
    async def resign(self, ctx: Ctx, match: bool | None = None) -> None:
        await self.run(ctx, lines.resign_line(match))

    @commands.hybrid_command(name="abort", description=described("abort"))  # type: ignore[arg-type]
    async def abort(self, ctx: Ctx) -> None:
        await self.run(ctx, "abort")

    @commands.hybrid_command(name="claim", description=described("claim"))  # type: ignore[arg-type]
    async def claim(self, ctx: Ctx) -> None:
        await self.run(ctx, "claim")

    @commands.hybrid_command(name="rematch", description=described("rematch"))  # type: ignore[arg-type]
    async def rematch(self, ctx: Ctx) -> None:
        await self.run(ctx, "rematch")

    @commands.hybrid_command(name="top", description=described("top"))  # type: ignore[arg-type]
    @app_commands.describe(game=described("game"), scope=described("top.scope"), count=described("top.count"))
    @app_commands.choices(game=GAMES)
    async def top(
        self,
        ctx: Ctx,
        game: str | None = None,
        scope: Literal["server", "global"] | None = None,
        count: Count | None = None,
    ) -> None:
        await self.run(ctx, lines.top_line(scope, count, game))

    @commands.hybrid_command(name="stats", description=described("stats"))  # type: ignore[arg-type]
    @app_commands.describe(user=described("stats.user"))
    async def stats(self, ctx: Ctx, user: discord.User | None = None) -> None:
        await self.run(ctx, lines.stats_line(user.id if user else None), [user])

    @commands.hybrid_command(name="mygames", description=described("mygames"))  # type: ignore[arg-type]
    async def mygames(self, ctx: Ctx) -> None:
        await self.run(ctx, "mygames")

    @commands.hybrid_command(name="export", description=described("export"))  # type: ignore[arg-type]
    async def export(self, ctx: Ctx) -> None:
        await self.run(ctx, "export")

    @commands.hybrid_command(name="replay", description=described("replay"))  # type: ignore[arg-type]
    async def replay(self, ctx: Ctx) -> None:
        await self.run(ctx, "replay")

    @commands.hybrid_command(name="analyze", description=described("analyze"))  # type: ignore[arg-type]
    @app_commands.describe(game=described("analyze.game"))
    async def analyze(self, ctx: Ctx, game: str | None = None) -> None:
        """How well each side played the last game here (or the named one)."""
        await self.run(ctx, f"analyze {game.strip()}" if game and game.strip() else "analyze")

    @commands.hybrid_command(name="lang", description=described("lang"))  # type: ignore[arg-type]
    @app_commands.describe(code=described("lang.code"))
    async def lang(self, ctx: Ctx, code: Literal["en", "el"]) -> None:
        await self.run(ctx, f"lang {code}")

    @commands.hybrid_command(name="ping", description=described("ping"))  # type: ignore[arg-type]
    @app_commands.describe(setting=described("ping.setting"))
    async def ping(self, ctx: Ctx, setting: Literal["on", "off", "dm on", "dm off"]) -> None:
        """Your turn pings: on or off, and by direct message."""
        await self.run(ctx, f"ping {setting}")

    @commands.hybrid_command(name="settings", description=described("settings"))  # type: ignore[arg-type]
    @app_commands.describe(name=described("settings.name"), value=described("settings.value"))
    async def settings(self, ctx: Ctx, name: str | None = None, value: str | None = None) -> None:
        await self.run(ctx, lines.settings_line(name, value))

    @settings.autocomplete("name")
    async def setting_names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        return [app_commands.Choice(name=n, value=n) for n in SETTINGS if typed in n][:25]

"""``/fevga-more``: the commands past Discord's 25 subcommands of ``/fevga`` (``puzzle``, ``dice``, ``h2h``).

Each slash call is written as one command-language line and run like every ``/fevga`` slash command, so
the core reads and answers it exactly as the typed ``!fevga dice @bob``. The name starts with ``fevga`` so
a player typing ``/fevga`` sees these beside the others.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from . import lines
from .command_text import TEXT, described
from .frontend import DiscordFrontend

TEXT.update({
    "more": ("More tavli: the puzzle, dice luck, head-to-head", "Κι άλλα: ο γρίφος, η τύχη στα ζάρια, οι αναμετρήσεις"),
    "more.puzzle": (
        "A puzzle from a real game (here: today's), or answer it",
        "Γρίφος από αληθινή παρτίδα, ή απάντησέ τον",
    ),
    "more.puzzle.play": (
        "Your answer, e.g. 1/7 7/12; or a game: portes, plakoto, fevga, tavli (empty: show it)",
        "Η απάντησή σου, π.χ. 1/7 7/12· ή παιχνίδι: πόρτες, πλακωτό, φεύγα, τάβλι (κενό: δείξ' τον)",
    ),
    "more.dice": (
        "Dice statistics of a player or one match's fair dice",
        "Στατιστικά ζαριών παίκτη ή τίμια ζάρια αγώνα",
    ),
    "more.dice.user": ("Whose dice (default: yours)", "Ποιανού τα ζάρια (προεπιλογή: τα δικά σου)"),
    "more.dice.game": (
        "A game id instead: its fair-dice seed and check",
        "Ή κωδικός παρτίδας: ο σπόρος των ζαριών της",
    ),
    "more.h2h": ("Head-to-head record of two players", "Οι αναμετρήσεις δύο παικτών"),
    "more.h2h.user": ("The opponent (you against them)", "Ο αντίπαλος (εσύ εναντίον του)"),
    "more.h2h.other": ("A second player: the first against this one", "Δεύτερος παίκτης: ο πρώτος εναντίον αυτού"),
})  # fmt: skip


class FevgaMoreCog(commands.GroupCog, group_name="fevga-more", group_description=described("more")):
    """The ``fevga-more`` slash group; the ``DiscordFrontend`` and the core do the work."""

    def __init__(self, frontend: DiscordFrontend) -> None:
        self.frontend = frontend
        super().__init__()

    @app_commands.command(name="puzzle", description=described("more.puzzle"))
    @app_commands.describe(play=described("more.puzzle.play"))
    async def puzzle(self, interaction: discord.Interaction, play: str | None = None) -> None:
        """``puzzle`` (show it) or ``puzzle <play>`` (answer it, privately: acknowledged ephemerally at once so
        that a slow answer's public "thinking..." never shows the play to the channel)."""
        line = lines.puzzle_line(play)
        if line != "puzzle":
            await interaction.response.defer(ephemeral=True, thinking=True)
        await self.frontend.on_slash(interaction, line)

    @app_commands.command(name="dice", description=described("more.dice"))
    @app_commands.describe(user=described("more.dice.user"), game=described("more.dice.game"))
    async def dice(
        self, interaction: discord.Interaction, user: discord.User | None = None, game: str | None = None
    ) -> None:
        """``dice [@player | game id]`` (both given: the core says it takes one)."""
        line = lines.dice_line(user.id if user else None, game)
        await self.frontend.on_slash(interaction, line, [user] if user else [])

    @app_commands.command(name="h2h", description=described("more.h2h"))
    @app_commands.describe(user=described("more.h2h.user"), other=described("more.h2h.other"))
    async def h2h(
        self, interaction: discord.Interaction, user: discord.User, other: discord.User | None = None
    ) -> None:
        """``h2h @player [@player]``."""
        line = lines.h2h_line(user.id, other.id if other else None)
        await self.frontend.on_slash(interaction, line, [u for u in (user, other) if u is not None])

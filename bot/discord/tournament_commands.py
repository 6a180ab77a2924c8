"""``/tournament``: the admin's ``create`` form plus every other tournament command as a slash command
(``join``, ``leave``, ``start``, ``cancel``, ``remove``, ``standings``, and ``list`` for ``tournaments``).

Each is written as one command-language line and run like every ``/fevga`` slash command, so the core checks
it (admin rights, the event's state) and answers exactly as it answers the typed ``!fevga tournament join``.
"""

from __future__ import annotations

import discord
from discord import app_commands

from . import lines
from .command_text import TEXT, described
from .tournament_form import TournamentFormCog

TEXT.update({
    "tournament.join": ("Join the tournament here", "Μπες στο τουρνουά εδώ"),
    "tournament.leave": ("Leave the tournament here", "Φύγε από το τουρνουά εδώ"),
    "tournament.start": ("Start the tournament now (admins)", "Ξεκίνα το τουρνουά τώρα (διαχειριστές)"),
    "tournament.cancel": ("Cancel the tournament (admins)", "Ακύρωσε το τουρνουά (διαχειριστές)"),
    "tournament.remove": (
        "Withdraw a player from the tournament (admins)",
        "Απόσυρε παίκτη από το τουρνουά (διαχειριστές)",
    ),
    "tournament.remove.user": ("The player to withdraw", "Ο παίκτης που αποσύρεται"),
    "tournament.standings": ("Standings and pairings of the tournament", "Βαθμολογία και ζευγάρια του τουρνουά"),
    "tournament.standings.id": ("A tournament id (default: the one here)", "Κωδικός τουρνουά (προεπιλογή: το εδώ)"),
    "tournament.list": ("The tournaments here, running and past", "Τα τουρνουά εδώ, τρέχοντα και παλιά"),
})  # fmt: skip


class TournamentCog(TournamentFormCog, group_name="tournament", group_description=described("tournament")):
    """The ``/tournament`` group: the form's ``create`` and the typed commands' slash forms."""

    async def act(self, interaction: discord.Interaction, line: str, users: list[discord.User] | None = None) -> None:
        """Run ``line`` for the member like any slash command."""
        await self.frontend.on_slash(interaction, line, users or [])

    @app_commands.command(name="join", description=described("tournament.join"))
    async def join(self, interaction: discord.Interaction) -> None:
        """``tournament join``."""
        await self.act(interaction, lines.tournament_line("join"))

    @app_commands.command(name="leave", description=described("tournament.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        """``tournament leave``."""
        await self.act(interaction, lines.tournament_line("leave"))

    @app_commands.command(name="start", description=described("tournament.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        """``tournament start`` (the core checks the admin right)."""
        await self.act(interaction, lines.tournament_line("start"))

    @app_commands.command(name="cancel", description=described("tournament.cancel"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        """``tournament cancel`` (the core checks the admin right)."""
        await self.act(interaction, lines.tournament_line("cancel"))

    @app_commands.command(name="remove", description=described("tournament.remove"))
    @app_commands.describe(user=described("tournament.remove.user"))
    async def remove(self, interaction: discord.Interaction, user: discord.User) -> None:
        """``tournament remove <@id>``."""
        await self.act(interaction, lines.tournament_line("remove", f"<@{user.id}>"), [user])

    @app_commands.command(name="standings", description=described("tournament.standings"))
    @app_commands.describe(tournament=described("tournament.standings.id"))
    async def standings(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        """``tournament standings [id]``."""
        await self.act(interaction, lines.tournament_line("standings", tournament))

    @app_commands.command(name="list", description=described("tournament.list"))
    async def list_(self, interaction: discord.Interaction) -> None:
        """``tournaments``: the place's events."""
        await self.act(interaction, "tournaments")

"""``/tournament create``: the admin's form for a new tournament (a Discord modal: kind and game, rounds,
points, deadline, rated), through discord.py's UI classes. The submitted form is written as one command-language
line (``tournament create swiss rounds 5 points 3 deadline 24h rated``) and run like any slash command, so
the core checks it (admin rights, ranges) and answers exactly as it answers the typed command.

(The ``fevga`` group is at Discord's 25 subcommands, so this is a group of its own; ``tournament_commands``
adds the other tournament commands to it.)
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.chat.presenter import context_words
from bot.i18n import translate

from .command_text import TEXT, described, text
from .frontend import DiscordFrontend, locale_of
from .identity import is_admin

TEXT.update({
    "tournament": ("Server tournaments (Swiss or knockout)", "Τουρνουά του διακομιστή (ελβετικό ή νοκ-άουτ)"),
    "tournament.create": ("Open a tournament here with a form (admins)", "Άνοιξε τουρνουά εδώ με φόρμα (διαχειριστές)"),
    "ui.tform.title": ("New tournament", "Νέο τουρνουά"),
    "ui.tform.kind": ("Kind and game, e.g. swiss portes", "Είδος και παιχνίδι, π.χ. swiss πόρτες"),
    "ui.tform.rounds": ("Rounds (Swiss: 1-15)", "Γύροι (ελβετικό: 1-15)"),
    "ui.tform.points": ("Match length in points", "Μήκος αγώνα σε πόντους"),
    "ui.tform.deadline": ("A round's deadline: 90m, 24h, 2d", "Προθεσμία γύρου: 90m, 24h, 2d"),
    "ui.tform.rated": ("rated or unrated", "rated ή unrated"),
})  # fmt: skip
FIELDS = ("kind", "rounds", "points", "deadline", "rated")
DEFAULTS = {"kind": "swiss", "rounds": "5", "points": "3", "deadline": "24h", "rated": "rated"}


def form_line(values: dict[str, str]) -> str:
    """The command line of a submitted form (each field's first word, the kind's field two: the kind and the
    game, which the core checks like a typed one; an empty field takes its default, no game the place's)."""
    words = {name: ((values.get(name) or "").split() or [DEFAULTS[name]])[0][:20] for name in FIELDS}
    game = " ".join(word[:20] for word in (values.get("kind") or "").split()[1:2])
    return (f"tournament create {words['kind']}{' ' + game if game else ''} rounds {words['rounds']} "
            f"points {words['points']} deadline {words['deadline']} {words['rated']}")


def lang_of(interaction: discord.Interaction) -> str:
    """The form's language: Greek for a Greek Discord client, else English."""
    return "el" if (locale_of(interaction) or "").startswith("el") else "en"


class TournamentForm(discord.ui.Modal):
    """The five fields of ``tournament create``; submitting runs the command for the admin."""

    def __init__(self, frontend: DiscordFrontend, lang: str) -> None:
        super().__init__(title=text("ui.tform.title", lang), custom_id="fevga:tform", timeout=900)
        self.frontend = frontend
        self.inputs: dict[str, discord.ui.TextInput[TournamentForm]] = {}
        for name in FIELDS:
            field: discord.ui.TextInput[TournamentForm] = discord.ui.TextInput(
                label=text(f"ui.tform.{name}", lang), custom_id=f"tform:{name}", default=DEFAULTS[name],
                max_length=20, required=False)  # fmt: skip
            self.inputs[name] = field
            self.add_item(field)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Run the form's line as the admin's command (answered like the typed one)."""
        await self.frontend.on_slash(interaction, form_line({n: f.value for n, f in self.inputs.items()}))


class TournamentFormCog(commands.GroupCog, group_name="tournament", group_description=described("tournament")):
    """``/tournament create``: opens the form (only for admins; others are told why at once)."""

    def __init__(self, frontend: DiscordFrontend) -> None:
        self.frontend = frontend
        super().__init__()

    @app_commands.command(name="create", description=described("tournament.create"))
    async def create(self, interaction: discord.Interaction) -> None:
        """Open the form."""
        lang = lang_of(interaction)
        if interaction.guild_id is None:  # a DM: nobody else could join
            await interaction.response.send_message(translate("tournament_private", lang), ephemeral=True)
            return
        if not is_admin(interaction.user, interaction.channel):
            refusal = translate("tournament_admin_only", lang, **context_words("discord", lang))
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        await interaction.response.send_modal(TournamentForm(self.frontend, lang))

"""The Discord frontend (discord.py 2.x): ``/fevga`` hybrid commands, persistent buttons and boards.

``build_bot(core, settings)`` gives the bot; ``run_discord(core, settings)`` runs it. Every command and
click goes to ``BotCore`` (``bot/chat/core.py``); this package only presents the core's replies.
"""

from .app import AnyFevgaBot, FevgaBot, ShardedFevgaBot, build_bot, prepare_bot, run_discord

__all__ = ["AnyFevgaBot", "FevgaBot", "ShardedFevgaBot", "build_bot", "prepare_bot", "run_discord"]

"""Who a result is for: shared (the place's language, everyone sees it) or personal (the actor's language).

Boards and game events (moves, challenges, results) are shared, so a board never changes language with the
player who moved. Answers about one player (help, stats, settings, errors...) are personal; those about his
own settings are also private (Discord: ephemeral; Telegram: his private chat when the bot may write there).
"""

from __future__ import annotations

from bot.commands import intents as i
from bot.commands import puzzle_intents as pz
from bot.service.models import Place, Result
from bot.service.settings import ALIASES, SETTINGS, owner_of

SHARED_INTENTS: tuple[type[i.Intent], ...] = (
    i.Challenge, i.Accept, i.Decline, i.Cancel, i.PlayAI, i.Move, i.Step, i.Undo, i.Confirm, i.ShowBoard,
    i.Resign, i.Abort, i.Claim, i.Rematch,
)


def is_shared(intent: i.Intent, result: Result) -> bool:
    """True when the result goes to everyone here in the place's language (a board, a game event)."""
    return result.ok and (result.view is not None or isinstance(intent, SHARED_INTENTS))


def is_private(intent: i.Intent) -> bool:
    """True for answers only the actor should see: his language, his settings and his own setting changes
    (a place setting changed by an admin is announced to everyone)."""
    if isinstance(intent, i.Lang | pz.PuzzleAnswer | pz.PuzzleStep):  # only its author learns if he was right
        return True
    if isinstance(intent, i.Settings):
        if intent.setting is None:
            return True
        name = ALIASES.get(intent.setting.lower(), intent.setting.lower())
        return SETTINGS.get(name, ("player", False))[0] == "player"
    return False


def noted_key(intent: i.Intent, place: Place) -> str | None:
    """The message a group or channel gets instead of the verdict on a typed answer to its daily puzzle when the
    verdict cannot go privately (it would show everyone the solution): the answer is recorded, and how to see it."""
    if not isinstance(intent, pz.PuzzleAnswer) or owner_of(place) is not None:
        return None
    return "puzzle_noted_discord" if place.platform == "discord" else "puzzle_noted"

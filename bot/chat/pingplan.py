"""What a game's players should have been told at its stored version (``bot.delivery.Pinger`` sends it):
the player to move pinged in a game between two people (unless his ``ping`` setting is off; privately too
with ``ping_dm on``) once he has been idle for the place's ``ping_after`` seconds, and a new message when a
game is over (an edit of the board notifies nobody), unless the outbox's notice of a player who left told it."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.chat.presenter import caption
from bot.delivery.pings import PingPlan
from bot.delivery.replies import Reply
from bot.i18n import display_name, translate
from bot.service import GameService, Place, PlayerRef, keys
from bot.service.models import GameView
from bot.service.reads import Reads, read_one
from bot.storage import Store

log = logging.getLogger(__name__)
PING_DEFAULTS = {"ping": "on", "ping_dm": "off"}
LanguageOf = Callable[[PlayerRef | None, Place], Awaitable[str]]  # BotCore.language


def turn_key(view: GameView) -> str:
    """One turn of one game: the game, the seat to move, the position and the dice."""
    dice = f"{view.dice[0]}{view.dice[1]}" if view.dice else "-"
    return f"{view.game_no}:{view.turn}:{view.position_id}:{dice}"


def finished_games(view: GameView) -> int:
    """How many games of the match are over (the one shown included when it is)."""
    over = view.status != "play" or view.winner is not None
    return view.game_no if over else view.game_no - 1


def between_people(view: GameView, platform: str) -> bool:
    """Both players are people of this platform (against the AI the answer itself is the news)."""
    return all(p.platform == platform for p in view.players) and not view.players[0].same(view.players[1])


async def player_prefs(store: Store, player: PlayerRef) -> dict[str, str]:
    """The player's ``ping`` and ``ping_dm`` settings (their defaults when unset or unreadable)."""
    try:
        values = await read_one(store, lambda r: r.hgetall(keys.player_settings(player.platform, player.user_id)))
    except Exception:  # a damaged settings key must not stop the game's pings
        log.exception("reading the ping settings of %s failed", player.user_id)
        values = {}
    return {name: str(values.get(name, default)) for name, default in PING_DEFAULTS.items()}


async def ping_after(store: Store, place: Place, default: float) -> float:
    """The place's ``ping_after`` setting (seconds a player must be idle before his turn ping), else ``default``."""
    reads = Reads()
    values = reads.hgetall(keys.place_settings(place))
    try:
        await reads.run(store)
        return max(0.0, float(values.value.get("ping_after", default)))
    except Exception:  # a damaged settings key must not stop the game's pings
        log.exception("reading the ping_after setting of %s failed", place.channel_id)
        return default


def end_text(view: GameView, lang: str) -> str:
    """The new message when a game is over: the match's result when the match is over, else the game's and the
    score so far."""
    if view.status == "aborted":
        return translate("group_game_called_off", lang, players=" – ".join(display_name(n, lang) for n in view.names))
    if view.status == "play" and view.winner is None:  # the next game of the match runs already
        score = f"{view.names[0]} {view.score[0]}–{view.score[1]} {view.names[1]}"
        key = "group_game_drawn_next" if view.previous_drawn else "group_game_over_next"
        return translate(key, lang, game_no=view.game_no - 1, score=score)
    won = view.match_winner
    if view.status == "done" and won is not None and view.match_length > 1:  # the match is over, not just a game
        key = "match_won" if view.score[won] >= view.match_length else "match_won_early"
        said = translate(key, lang, player=display_name(view.names[won], lang), length=view.match_length,
                         score=f"{view.score[0]}-{view.score[1]}")
        return translate("group_match_over", lang, result=said, players=" – ".join(
            display_name(n, lang) for n in view.names))
    return translate("group_game_over", lang, result=caption(view, lang))


async def ping_plan(service: GameService, store: Store, language: LanguageOf, game_id: str,
                    default_after: float = 0.0) -> PingPlan | None:
    """The plan for a game at its stored version; None when the game is gone. ``default_after``: seconds
    of idleness before a turn ping where the place has no ``ping_after`` setting."""
    result = await service.view_of(game_id)
    view, place = result.view, result.place
    if not result.ok or view is None or place is None:
        return None
    finished = finished_games(view)
    told = view.end == "left"  # his leaving ended it: the outbox's notice (the verdict with the board) says so
    end = Reply(end_text(view, await language(None, place))) if finished > 0 and not told else None
    plan = PingPlan(view.version, place, finished=finished, end=end)
    if view.status != "play" or view.winner is not None or not between_people(view, place.platform):
        return plan
    mover = view.players[view.turn]
    prefs = await player_prefs(store, mover)
    lang = await language(mover, place)
    dice = f"{view.dice[0]}-{view.dice[1]}" if view.dice else ""
    ping = Reply(translate("group_your_turn", lang, player=mover.name, dice=dice), mention=(mover,))
    players = " – ".join(display_name(n, lang) for n in view.names)
    direct = Reply(translate("group_your_turn_direct", lang, dice=dice, players=players, game=view.game))
    return PingPlan(view.version, place, turn_key(view), ping if prefs["ping"] == "on" else None,
                    direct if prefs["ping_dm"] == "on" else None, mover, finished, end,
                    await ping_after(store, place, default_after))


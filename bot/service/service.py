"""The game-session service: one async, platform-neutral API over a Store, used by every frontend.

Every command takes ``(actor, place, ..., idem=None)`` and returns a :class:`~bot.service.models.Result`;
bad input and corrupt stored data give ``ok=False`` with a message key, never an exception. If the
store itself is unreachable the command answers ``store_unavailable``; an unexpected bug answers
``error``; both are logged with their traceback (the :func:`command` guard).

:class:`GameService` is a façade: each command delegates to one collaborator (see docs/architecture.md).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

from bot.storage.base import Store
from fevga import Rules

from .ai import AiPlayer, default_ai
from .analyses import Analyses
from .challenges import Challenges
from .config import Clock, Options
from .events import Events
from .flow import MatchFlow
from .guard import command
from .info import Info
from .leavers import Leavers
from .lookups import LookupCommands
from .models import Place, PlayerRef, Result
from .mygames import MyGames
from .puzzle_commands import PuzzleCommands
from .puzzles.hub import Puzzles
from .seasons.commands import SeasonCommands
from .seasons.seasons import Seasons
from .sessions import Sessions
from .settings import Settings
from .timers import Timers
from .tournaments.commands import TournamentCommands
from .tournaments.events import Tournaments
from .turns import Turns


class GameService(LookupCommands, PuzzleCommands, SeasonCommands, TournamentCommands):
    """Challenges, games, the AI, timers, leaderboards, records: a façade over named collaborators.

    ``GameService(store, clock=time.time, ai=None, challenge_ttl=600, turn_deadline=86400,
    quick_deadline=600, reminder_fractions=(0.5, 0.9), idem_ttl=900, timer_lease=5,
    session_cache_size=2000)``; ``ai=None`` picks ``fevga.ai`` when present, else a random player.
    """

    def __init__(
        self,
        store: Store,
        clock: Clock = time.time,
        ai: AiPlayer | None = None,
        challenge_ttl: float = 600,
        turn_deadline: float = 86400,
        quick_deadline: float = 600,
        reminder_fractions: tuple[float, ...] = (0.5, 0.9),
        idem_ttl: int = 900,
        timer_lease: float = 5,
        max_retries: int = 8,
        session_cache_size: int = 2000,
        analysis_workers: int = 1,
        analysis_ply: int | None = None,
        ai_level: str = "medium",
    ) -> None:
        self.store = store
        self.clock = clock
        self.ai: AiPlayer = ai if ai is not None else default_ai()
        self.options = Options(challenge_ttl, turn_deadline, quick_deadline, tuple(reminder_fractions), idem_ttl,
                               timer_lease, max_retries, session_cache_size, ai_level)
        self.sessions = Sessions(store, clock, self.options)
        self.flow = MatchFlow(store, clock, self.ai)
        self.preferences = Settings(store, self.options, self.sessions, self.flow)
        self.challenges = Challenges(store, clock, self.options, self.sessions, self.flow, self.preferences)
        self.turns = Turns(store, clock, self.ai, self.sessions, self.flow)
        self.timers = Timers(store, clock, self.options, self.sessions, self.flow, self.challenges)
        self.info = Info(store, clock, self.sessions)
        self.games = MyGames(store, self.sessions)
        self.stream = Events(store)
        self.analyses = Analyses(store, self.info, analysis_workers, analysis_ply)
        self.puzzles = Puzzles(store, clock)
        self.analyses.found_puzzles = self.puzzles.add_found
        self.tournaments = Tournaments(store, clock, self.sessions, self.challenges, self.preferences)
        self.seasons = Seasons(store, clock)
        self.leavers = Leavers(store, self.sessions, self.flow)  # players who left a server or group

    def close(self) -> None:
        """Release what the service started itself (the analysis worker processes)."""
        self.analyses.close()

    # --- challenges (Challenges) -------------------------------------------------------------
    @command
    async def challenge(self, actor: PlayerRef, place: Place, opponent: PlayerRef | None, length: int = 1,
                        rules: Rules | None = None, idem: str | None = None, quick: bool = False,
                        kind: str | None = None) -> Result:
        """Challenge ``opponent`` (None: an open challenge anyone here may take) to a match of ``length`` of
        ``kind`` (fevga, portes, plakoto, tavli; None: the place's ``default_game``)."""
        return await self.challenges.challenge(actor, place, opponent, length, rules, idem, quick, kind)

    @command
    async def accept(self, actor: PlayerRef, place: Place, challenge_id: str | None = None,
                     idem: str | None = None) -> Result:
        """Take a challenge addressed to the actor, or an open one: the game starts at once."""
        return await self.challenges.accept(actor, place, challenge_id, idem)

    @command
    async def decline(self, actor: PlayerRef, place: Place, challenge_id: str | None = None,
                      idem: str | None = None) -> Result:
        """The addressee turns a challenge down."""
        return await self.challenges.decline(actor, place, challenge_id, idem)

    @command
    async def cancel(self, actor: PlayerRef, place: Place, challenge_id: str | None = None,
                     idem: str | None = None) -> Result:
        """The challenger takes a challenge back."""
        return await self.challenges.cancel(actor, place, challenge_id, idem)

    @command
    async def play_ai(self, actor: PlayerRef, place: Place, level: str | None = None, length: int = 1,
                      idem: str | None = None, kind: str | None = None) -> Result:
        """Start a match of ``kind`` (None: the place's default game) against the built-in AI (unrated) at
        ``level`` (None: the configured default, FEVGA_AI_LEVEL)."""
        return await self.challenges.play_ai(actor, place, level or self.options.ai_level, length, idem, kind)

    @command
    async def rematch(self, actor: PlayerRef, place: Place, idem: str | None = None,
                      game_id: str | None = None) -> Result:
        """A new match with the same opponent, length and rules as the actor's last one here (``game_id``: a
        button's game, which must still be his last one, else the button is out of date)."""
        return await self.challenges.rematch(actor, place, idem, game_id)

    # --- playing (Turns) ---------------------------------------------------------------------
    @command
    async def move(self, actor: PlayerRef, place: Place, text: str, game_id: str | None = None,
                   idem: str | None = None, version: int | None = None) -> Result:
        """Play a whole turn written as text (``1/7 7/12``, ``1/7/12``, Greek letters, ``pass``)."""
        return await self.turns.move(actor, place, text, game_id, idem, version)

    @command
    async def step(self, actor: PlayerRef, place: Place, game_id: str, version: int, from_point: int, die: int,
                   idem: str | None = None) -> Result:
        """Add one step (a checker from ``from_point`` with ``die``) to the play being built."""
        return await self.turns.step(actor, place, game_id, version, from_point, die, idem)

    @command
    async def undo(self, actor: PlayerRef, place: Place, game_id: str | None = None, idem: str | None = None,
                   version: int | None = None) -> Result:
        """Take back the last step of the play being built."""
        return await self.turns.undo(actor, place, game_id, idem, version)

    @command
    async def confirm(self, actor: PlayerRef, place: Place, game_id: str | None = None,
                      idem: str | None = None, version: int | None = None) -> Result:
        """Play the steps built so far once they make a whole legal play."""
        return await self.turns.confirm(actor, place, game_id, idem, version)

    @command
    async def resign(self, actor: PlayerRef, place: Place, whole_match: bool = False, game_id: str | None = None,
                     idem: str | None = None, version: int | None = None) -> Result:
        """Give up the game (2 points while the resigner has borne off none, else 1) or the whole match."""
        return await self.turns.resign(actor, place, whole_match, game_id, idem, version)

    @command
    async def resign_prompt(self, actor: PlayerRef, place: Place, game_id: str | None = None,
                            whole_match: bool = False) -> Result:
        """Ask before resigning: what it gives away, with a resign_confirm button (``resign yes`` typed)."""
        return await self.turns.resign_prompt(actor, place, game_id, whole_match)

    @command
    async def abort(self, actor: PlayerRef, place: Place, game_id: str | None = None,
                    idem: str | None = None) -> Result:
        """Call the game off before both players have moved: no result, no rating change."""
        return await self.turns.abort(actor, place, game_id, idem)

    @command
    async def claim(self, actor: PlayerRef, place: Place, game_id: str | None = None,
                    idem: str | None = None) -> Result:
        """After the mover's deadline, the waiting player claims the match (the mover resigns it)."""
        return await self.turns.claim(actor, place, game_id, idem)

    @command
    async def board(self, actor: PlayerRef, place: Place, game_id: str | None = None) -> Result:
        """The actor's game here as it stands (or his last finished one)."""
        return await self.turns.board(actor, place, game_id)

    @command
    async def hint(self, actor: PlayerRef, place: Place, game_id: str | None = None, n: int = 3) -> Result:
        """The AI's best plays for the actor's roll (only on his own turn)."""
        return await self.turns.hint(actor, place, game_id, n)

    @command
    async def view_of(self, game_id: str) -> Result:
        """The current view of a game by id, for redrawing after an event (no actor, no buttons checked)."""
        return await self.turns.view_of(game_id)

    # --- settings (Settings) -----------------------------------------------------------------
    @command
    async def settings(self, actor: PlayerRef, place: Place) -> Result:
        """Every setting that applies to the actor here, with its value."""
        return await self.preferences.settings(actor, place)

    @command
    async def set_setting(self, actor: PlayerRef, place: Place, name: str, value: str, is_admin: bool = False,
                          idem: str | None = None) -> Result:
        """Change one setting; place settings need ``is_admin`` (a chat admin; always true in the terminal)."""
        return await self.preferences.set_setting(actor, place, name, value, is_admin, idem)

    async def lang(self, actor: PlayerRef | None, place: Place, hint: str | None = None) -> str:
        """The language of personal replies: the player's choice, else ``hint`` (his platform's), else the place's."""
        return await self.preferences.lang(actor, place, hint)

    async def languages(self, actor: PlayerRef | None, place: Place, hint: str | None = None,
                        default: str = "en") -> tuple[str, str]:
        """(personal, shared) languages: the actor's, and the place's for boards and shared messages."""
        return await self.preferences.languages(actor, place, hint, default)

    # --- background (Timers, Events) ---------------------------------------------------------
    async def tick(self, platform: str | None = None) -> list[Result]:
        """Act on every due timer this instance claims (only ``platform``'s when given); notices to post.
        Tournaments whose time has come move on too (bot/service/tournaments), daily puzzles are posted and ended
        seasons close."""
        done = await self.timers.tick(platform) + await self.tournaments.tick(platform)
        return done + await self.puzzles.tick(platform) + await self.seasons.tick(platform)

    def platform_events(self, platform: str) -> AsyncIterator[dict[str, Any]]:
        """Every game event of a platform (all its channels), from when iteration starts."""
        return self.stream.platform_events(platform)

    def events(self, place_or_game: Place | str, platform: str | None = None) -> AsyncIterator[dict[str, Any]]:
        """Game events for a chat channel, one game, or (``platform=``) a platform; subscribes on iteration."""
        return self.stream.events(place_or_game, platform)

    async def subscribe_events(self, place_or_game: Place | str,
                               platform: str | None = None) -> AsyncIterator[dict[str, Any]]:
        """Like :meth:`events`, but subscribed already when this returns (nothing published after is missed)."""
        return await self.stream.subscribe_events(place_or_game, platform)


__all__ = ["GameService", "command"]

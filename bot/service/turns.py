"""Playing a game: whole plays as text, the step builder (step / undo / confirm), resign, abort, claim,
and the read-only board, hint and redraw (view_of)."""

from __future__ import annotations

import logging

from bot.service.button_kinds import ButtonKind
from bot.storage.base import DamagedKey, Store
from fevga import StepState, format_play
from fevga.ai.stakes import MatchScore
from fevga.errors import IllegalStepError

from . import fairness, keys
from .ai import AiPlayer, ai_hint
from .commits import Change
from .config import Clock
from .damaged import free_stale
from .flow import MatchFlow
from .models import Action, Msg, Place, PlayerRef, Result
from .reads import read_one
from .session import Session
from .sessions import Loaded, Sessions
from .views import abortable

log = logging.getLogger(__name__)


def _turn_error(s: Session, seat: int) -> Result | None:
    """Why ``seat`` cannot play now, or None."""
    if s.status != "play":
        return Result.error("game_over", game_id=s.id)
    if s.game.turn != seat:
        already = last_play_by(s, seat)
        return Result.error("turn_already_played" if already else "not_your_turn",
                            player=s.players[s.game.turn].name, game_id=s.id)
    return None


def last_play_by(s: Session, seat: int) -> bool:
    """Whether the last non-pass turn of the current game was played by ``seat``."""
    last = s.game.last_play
    return last is not None and last.player == seat


class Turns:
    """move / step / undo / confirm / resign / abort / claim on a player's game; board / hint / view_of read it."""

    def __init__(self, store: Store, clock: Clock, ai: AiPlayer, sessions: Sessions, flow: MatchFlow) -> None:
        self.store = store
        self.clock = clock
        self.ai = ai
        self.sessions = sessions
        self.flow = flow

    async def move(self, actor: PlayerRef, place: Place, text: str, game_id: str | None = None,
                   idem: str | None = None, version: int | None = None) -> Result:
        """Play a whole turn written as text (``1/7 7/12``, ``1/7/12``, Greek letters, ``pass``).

        With ``version`` (the board the player saw), a play for a turn that is gone is refused.
        """

        async def apply(s: Session, version: int, seat: int) -> Change | Result:
            err = _turn_error(s, seat)
            if err is not None:
                return err
            dice = s.game.dice
            added = s.game.play(text, player=seat, at=self.clock())
            change = Change(kind="move")
            played = added[0]
            change.messages.append(Msg("played", {"player": actor.name, "dice": f"{dice[0]}-{dice[1]}" if dice else "",
                                                  "play": played.text()}))
            self.flow.note_passes(s, added[1:], change)
            await self.flow.advance(s, change)
            await self.flow.rate(s, change)
            return change

        return await self.sessions.update(actor, place, game_id, idem, apply, version=version)

    async def step(self, actor: PlayerRef, place: Place, game_id: str, version: int, from_point: int, die: int,
                   idem: str | None = None) -> Result:
        """Add one step (a checker from ``from_point`` with ``die``) to the play being built."""

        async def apply(s: Session, current: int, seat: int) -> Change | Result:
            err = _turn_error(s, seat)
            if err is not None:
                return err
            try:
                s.game.step_options([*s.pending, (from_point, die)])
            except IllegalStepError:
                return Result.error("bad_step", point=from_point, die=die, game_id=s.id)
            s.pending.append((int(from_point), int(die)))
            return Change(kind="step")

        return await self.sessions.update(actor, place, game_id, idem, apply, version=version)

    async def undo(self, actor: PlayerRef, place: Place, game_id: str | None = None, idem: str | None = None,
                   version: int | None = None) -> Result:
        """Take back the last step of the play being built."""

        async def apply(s: Session, current: int, seat: int) -> Change | Result:
            err = _turn_error(s, seat)
            if err is not None:
                return err
            if not s.pending:
                return Result.error("nothing_to_undo", game_id=s.id)
            s.pending.pop()
            return Change(kind="step")

        return await self.sessions.update(actor, place, game_id, idem, apply, version=version)

    async def confirm(self, actor: PlayerRef, place: Place, game_id: str | None = None,
                      idem: str | None = None, version: int | None = None) -> Result:
        """Play the steps built so far once they make a whole legal play."""

        async def apply(s: Session, current: int, seat: int) -> Change | Result:
            err = _turn_error(s, seat)
            if err is not None:
                return err
            try:
                state: StepState | None = s.game.step_options(s.pending)
            except IllegalStepError:
                state = None
            if state is None or state.play is None:
                return Result.error("play_incomplete", game_id=s.id)
            dice = s.game.dice
            assert dice is not None
            added = s.game.play(state.play, player=seat, at=self.clock())
            change = Change(kind="move")
            change.messages.append(Msg("played", {"player": actor.name, "dice": f"{dice[0]}-{dice[1]}",
                                                  "play": format_play(state.play)}))
            self.flow.note_passes(s, added[1:], change)
            await self.flow.advance(s, change)
            await self.flow.rate(s, change)
            return change

        return await self.sessions.update(actor, place, game_id, idem, apply, version=version)

    async def resign_prompt(self, actor: PlayerRef, place: Place, game_id: str | None = None,
                            whole_match: bool = False) -> Result:
        """Ask before resigning: what it gives away, with a resign_confirm button (or ``resign yes`` typed). Before
        both players moved it says the game is called off instead; the whole match is confirmed by text."""
        loaded = await self.sessions.locate(actor, place, game_id, None, take=False)
        s = loaded.session
        if s is None:
            return loaded.error or Result.error("no_game")
        seat = s.seat_of(actor)
        if s.status != "play" or seat is None:
            return Result.error("game_over", game_id=s.id)
        points = s.game.resign_points(seat)
        if not fairness.both_moved(s):
            prompt = Msg("resign_abort_prompt", {})
        elif whole_match:
            prompt = Msg("resign_match_prompt", {"player": s.players[seat ^ 1].name})
        else:
            prompt = Msg("resign_confirm_prompt", {"points": points})
        result = self.sessions.result(s, loaded.version, [prompt, Msg("resign_confirm_how", {})])
        if whole_match and fairness.both_moved(s):  # the whole match: its own button
            confirm = Action(ButtonKind.RESIGN_MATCH_CONFIRM, s.id, loaded.version, "btn_resign_match_confirm", {})
        else:
            confirm = Action(ButtonKind.RESIGN_CONFIRM, s.id, loaded.version, "btn_resign_confirm", {"points": points})
        result.actions[:] = [confirm]
        return result

    async def resign(self, actor: PlayerRef, place: Place, whole_match: bool = False, game_id: str | None = None,
                     idem: str | None = None, version: int | None = None) -> Result:
        """Give up the game (its points to the opponent: 2 while the resigner has borne off none) or the match."""

        async def apply(s: Session, current: int, seat: int) -> Change | Result:
            if s.status != "play":
                return Result.error("game_over", game_id=s.id)
            if not fairness.both_moved(s):  # nothing to win yet: a resignation is an abort (no result)
                change = Change(kind="aborted")
                self.flow.abort(s, change, Msg("resign_aborted", {"player": actor.name}))
                change.notify.append(s.players[seat ^ 1])
                return change
            outcome = s.game.resign(seat)
            change = Change(kind="resign")
            change.messages.append(Msg("resigned_match" if whole_match else "resigned",
                                       {"player": actor.name, "points": outcome.points}))
            self.flow.game_over(s, change, whole_match=whole_match, end="resigned")
            await self.flow.advance(s, change)
            await self.flow.rate(s, change)
            change.notify.append(s.players[seat ^ 1])
            return change

        return await self.sessions.update(actor, place, game_id, idem, apply, version=version)

    async def abort(
        self, actor: PlayerRef, place: Place, game_id: str | None = None, idem: str | None = None
    ) -> Result:
        """Call the game off before both players have moved: no result, no rating change."""

        async def apply(s: Session, current: int, seat: int) -> Change | Result:
            if game_id is not None and s.status != "play":  # an old game's button
                return Result.error("button_stale", game_id=s.id)
            if not abortable(s):
                return Result.error("cannot_abort", game_id=s.id)
            change = Change(kind="aborted")
            self.flow.abort(s, change, Msg("aborted", {"player": actor.name}))
            change.notify.append(s.players[seat ^ 1])
            return change

        try:
            result = await self.sessions.update(actor, place, game_id, idem, apply)
        except DamagedKey as exc:  # the game key has the wrong type
            log.error("abort found damaged key %s", exc.key)
            result = Result.error("store_damaged")
        if result.error_key in ("corrupt_game", "store_damaged", "no_game"):
            return await self._archive(actor, place, game_id) or result
        return result

    async def _archive(self, actor: PlayerRef, place: Place, game_id: str | None) -> Result | None:
        """Abort of a damaged (or vanished) game: free the actor's channel entry if it names that game."""
        freed = await free_stale(self.store, place, actor.user_id)
        if freed is None or (game_id is not None and freed != game_id):
            return None
        return Result(ok=True, messages=[Msg("game_archived", {"game_id": freed})], game_id=freed, place=place)

    async def claim(
        self, actor: PlayerRef, place: Place, game_id: str | None = None, idem: str | None = None
    ) -> Result:
        """After the mover's deadline, the waiting player claims the match (the mover resigns it)."""

        async def apply(s: Session, current: int, seat: int) -> Change | Result:
            if s.status != "play":
                return Result.error("button_stale" if game_id is not None else "game_over", game_id=s.id)
            if s.game.turn == seat:
                return Result.error("claim_own_turn", game_id=s.id)
            if self.clock() < s.deadline:
                return Result.error("claim_too_early", seconds=max(0.0, s.deadline - self.clock()))
            return await self.flow.claim(s, seat ^ 1)

        return await self.sessions.update(actor, place, game_id, idem, apply)

    async def board(self, actor: PlayerRef, place: Place, game_id: str | None = None) -> Result:
        """The actor's game here as it stands (or his last finished one)."""
        loaded = await self.sessions.locate(actor, place, game_id, None, take=False)
        if loaded.session is None and loaded.error is not None and loaded.error.error_key == "no_game_here":
            loaded = await self._last_game(actor, place, loaded)
        if loaded.session is None:
            return loaded.error or Result.error("no_game_here")
        return self.sessions.result(loaded.session, loaded.version)

    async def _last_game(self, actor: PlayerRef, place: Place, otherwise: Loaded) -> Loaded:
        """The actor's last finished game here (for board), else ``otherwise``."""
        gid = await read_one(self.store, lambda r: r.hget(keys.channel_last(place), actor.user_id))
        return otherwise if gid is None else await self.sessions.load(gid, take=False)

    async def hint(self, actor: PlayerRef, place: Place, game_id: str | None = None, n: int = 3) -> Result:
        """The AI's best plays for the actor's roll (only on his own turn)."""
        loaded = await self.sessions.locate(actor, place, game_id, None, take=False)
        s = loaded.session
        if s is None:
            return loaded.error or Result.error("no_game_here")
        seat = s.seat_of(actor)
        assert seat is not None
        if game_id is not None and s.status != "play":  # an old game's button
            return Result.error("button_stale", game_id=s.id)
        if s.status == "play" and s.game.turn != seat:  # asked while the other plays: not "already played"
            return Result.error("not_your_turn", player=s.players[s.game.turn].name, game_id=s.id)
        err = _turn_error(s, seat)
        if err is not None:
            return err
        if s.rated and len(s.human_seats()) == 2:  # the AI's advice is no help a rated opponent gets
            return Result.error("hint_rated", game_id=s.id)
        assert s.game.dice is not None
        score = MatchScore(s.length, s.score[seat], s.score[1 - seat], s.kind, s.game_no)  # advice plays the score
        options = await ai_hint(self.ai, s.game.position, s.game.dice, s.game.rules, n, score)
        messages = [Msg("hint_line", {"rank": i, "play": format_play(play), "equity": f"{score:+.3f}"})
                    for i, (play, score) in enumerate(options, 1)]
        return Result(ok=True, messages=messages, game_id=s.id, place=s.place)

    async def view_of(self, game_id: str) -> Result:
        """The current view of a game by id, for redrawing after an event (no actor, no buttons checked)."""
        loaded = await self.sessions.load(game_id, take=False)
        if loaded.session is None:
            return loaded.error or Result.error("no_game")
        return self.sessions.result(loaded.session, loaded.version)

"""The puzzle collaborator of the game service: the bank, puzzles on demand, the daily puzzle, and the puzzles
found in analysed games (searched in the analysis worker processes, never on the event loop)."""

from __future__ import annotations

import logging

from bot.service.config import Clock
from bot.service.keys import chat_titles
from bot.service.models import Msg, Place, PlayerRef, Result
from bot.service.play_codes import steps_code
from bot.service.reads import read_one
from bot.service.settings import owner_of
from bot.storage.base import Commit, Store, split_versioned
from fevga.errors import IllegalStepError
from fevga.play import format_play, format_steps
from fevga.puzzles import Puzzle

from . import keys
from .bank import Bank
from .daily import Daily
from .steps import Path, builder, step_actions
from .trainer import Trainer

log = logging.getLogger(__name__)
SHOWN_KEPT = 86400  # seconds the steps last shown to a player are remembered (a puzzle's day)


class Puzzles:
    """``puzzle``, ``puzzle <play>``, ``top puzzles`` and the daily posts."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.bank = Bank(store)
        self.trainer = Trainer(store, clock, self.bank)
        self.daily = Daily(store, clock, self.bank, self.trainer)

    async def puzzle(self, actor: PlayerRef, place: Place, game: str | None = None) -> Result:
        """In a private chat a puzzle near the actor's rating (of ``game`` from now on, when named); in a group
        today's daily puzzle here (its game is the place's ``default_game``; a game named is told to ask privately)."""
        if owner_of(place) is None:
            shown = await self.daily.show(place)
            if game is not None and shown.ok:  # one game's puzzles are given privately
                shown.messages.append(Msg("puzzle_game_in_private", {"game": game}))
            return shown
        return await self.trainer.give(actor, place, game)

    async def answer(self, actor: PlayerRef, place: Place, text: str) -> Result:
        """An answer: to the actor's own puzzle in a private chat, to the daily one in a group."""
        if owner_of(place) is None:
            return await self.daily.answer(actor, place, text)
        return await self.trainer.answer(actor, place, text)

    async def step(self, actor: PlayerRef, place: Place, pid: str, owner: str, path: Path) -> Result:
        """A step button of puzzle ``pid``: the presser's next step buttons, or, once the steps make a whole play,
        the answer (judged as the typed play). A button of another player or of a puzzle no longer asked here
        (yesterday's; in a private chat one neither given to him now nor answered) is refused and changes nothing, as
        is a press by a player who answered today's daily puzzle here, or one showing again the steps shown last.
        In his private chat the steps of a group's daily puzzle he began there answer that group's puzzle."""
        if owner and owner != actor.user_id:
            return Result.error("puzzle_button_not_yours")
        daily = owner_of(place) is None
        elsewhere = False  # the steps of a group's daily puzzle, built in his private chat
        if not daily and pid != await self.trainer.asked(actor, pid):
            group = await self._building(actor, pid)  # his steps of a group's daily puzzle, sent to him privately
            if group is None:
                return Result.error("puzzle_button_stale")
            place, daily, elsewhere = group, True, True
        if daily and pid != await self.daily.today(place):
            return Result.error("puzzle_button_stale")
        refused = await self.daily.answered(actor, place) if daily else None
        if refused is not None:  # one answer a day here: a later press changes nothing and shows nothing new
            return refused
        found = await self.bank.get(pid)
        if found is None:
            return Result.error("puzzle_missing")
        puzzle = found[0]
        try:
            state = builder(puzzle, path)
        except IllegalStepError:
            return Result.error("puzzle_button_stale")
        if state.play is not None:  # answered as typed (a double click: judged again, counted once)
            text = format_play(state.play)
            if daily:
                return await self.daily.answer(actor, place, text)
            return await self.trainer.answer(actor, place, text, pid)
        if not await self._first_showing(actor, place, pid, path):
            return Result.error("puzzle_steps_shown")
        steps = format_steps(state.steps, state.hits) if state.steps else ""  # none yet (undone): not "pass"
        said = [Msg("puzzle_steps" if steps else "puzzle_steps_none", {"id": pid, "steps": steps})]
        if elsewhere:  # which puzzle they answer (he may be in several groups)
            said.insert(0, await self._group_line(place))
        return Result(ok=True, messages=said, actions=step_actions(puzzle, pid, actor.user_id, path), place=place)

    async def _first_showing(self, actor: PlayerRef, place: Place, pid: str, path: Path) -> bool:
        """Record ``path`` as the steps shown to the actor for puzzle ``pid`` here; False when they are the ones
        shown last (a double press, or a press racing it), which must not post them again."""
        key = keys.steps_shown(actor.platform, actor.user_id, place.channel_id, pid)
        code = steps_code(path)
        raw = await read_one(self.store, lambda r: r.get(key))
        version, shown = split_versioned(raw) if raw is not None else (0, b"")
        if raw is not None and shown.decode(errors="replace") == code:
            return False
        commit = Commit().expect(key, version).put_versioned(key, version + 1, code.encode(), SHOWN_KEPT)
        if owner_of(place) is None:  # a group's daily puzzle: where his private step buttons answer it
            commit.put(keys.building(actor.platform, actor.user_id, pid), keys.daily_member(place).encode(), SHOWN_KEPT)
        return await self.store.commit(commit)

    async def unshown(self, actor: PlayerRef, place: Place, pid: str) -> None:
        """Forget the steps of puzzle ``pid`` last shown to the actor here: they never reached him (Telegram: his
        private chat with the bot is not open), so pressing them again shows them, not "shown already"."""
        await self.store.commit(Commit().delete(keys.steps_shown(actor.platform, actor.user_id, place.channel_id, pid)))

    async def _building(self, actor: PlayerRef, pid: str) -> Place | None:
        """The channel whose daily puzzle ``pid`` the actor is building an answer to (see :func:`keys.building`)."""
        raw = await read_one(self.store, lambda r: r.get(keys.building(actor.platform, actor.user_id, pid)))
        found = keys.member_place(raw.decode(errors="replace")) if raw is not None else None
        return found if found is not None and found.platform == actor.platform else None

    async def _group_line(self, place: Place) -> Msg:
        """The line naming the group whose daily puzzle steps shown in a private chat answer: by its title when
        the frontend has noted it (:func:`bot.service.keys.chat_titles`), else "the group's daily puzzle"."""
        title = await read_one(self.store, lambda r: r.hget(chat_titles(place.platform), place.channel_id))
        if not title:
            return Msg("puzzle_steps_in_a_group")
        return Msg("puzzle_steps_in_group", {"group": str(title)})

    async def top(self, place: Place, n: int = 10) -> Result:
        """The platform's best puzzle solvers."""
        return await self.trainer.top(place, n)

    async def tick(self, platform: str | None = None) -> list[Result]:
        """Daily posts whose time has come (never raises: the game timers must go on)."""
        try:
            return await self.daily.tick(platform)
        except Exception:
            log.exception("the daily puzzles could not be looked at")
            return []

    async def add_found(self, encoded: list[str]) -> int:
        """Add the puzzles a worker found in an analysed game; how many were new."""
        return await self.bank.add(Puzzle.decode(text) for text in encoded)

"""The service's puzzle commands: a mixin of :class:`~bot.service.service.GameService`, which builds the
:class:`~bot.service.puzzles.hub.Puzzles` collaborator they delegate to (docs/puzzles.md)."""

from __future__ import annotations

from .guard import command
from .models import Place, PlayerRef, Result
from .puzzles.hub import Puzzles
from .puzzles.steps import Path


class PuzzleCommands:
    """``puzzle [game]``, ``puzzle <play>``, a puzzle's step buttons and ``top puzzles``."""

    puzzles: Puzzles

    @command
    async def puzzle(self, actor: PlayerRef, place: Place, game: str | None = None) -> Result:
        """A puzzle near the actor's puzzle rating (private chats; ``game``: whose puzzles, from now on), or today's
        daily puzzle here (groups)."""
        return await self.puzzles.puzzle(actor, place, game)

    @command
    async def puzzle_answer(self, actor: PlayerRef, place: Place, text: str) -> Result:
        """Judge the actor's answer to his puzzle (or the daily one here); only a first answer is rated."""
        return await self.puzzles.answer(actor, place, text)

    @command
    async def puzzle_step(self, actor: PlayerRef, place: Place, pid: str, owner: str, path: Path) -> Result:
        """A puzzle's step button: the next steps, or the answer once they make a whole play."""
        return await self.puzzles.step(actor, place, pid, owner, path)

    @command
    async def top_puzzles(self, place: Place, n: int = 10) -> Result:
        """The platform's best puzzle solvers (rating, streaks, solved)."""
        return await self.puzzles.top(place, n)

"""Tournament commands the chats call on their own (not typed): a mixin of
:class:`~bot.service.service.GameService`, which builds the :class:`Tournaments` collaborator."""

from __future__ import annotations

from bot.service.guard import command
from bot.service.models import Msg, PlayerRef, Result

from . import gone
from .events import Tournaments


class TournamentCommands:
    """A player who left the server or group, or blocked the bot."""

    tournaments: Tournaments

    @command
    async def player_gone(self, who: PlayerRef, scope_id: str | None = None) -> Result:
        """Withdraw ``who`` from the open and running events of his platform (of server or group ``scope_id``
        only, when given); his running match there goes to his opponent at once. The notices go out through
        the outbox; the Result lists the events he left (for logs)."""
        touched = await gone.withdraw(self.tournaments, who, scope_id)
        return Result(ok=True, messages=[Msg("tournament_player_withdrawn", {"player": who.name, "id": tid})
                                         for tid in touched])

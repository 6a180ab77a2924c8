"""Commands the chats call on their own (not typed) when a player leaves: a mixin of
:class:`~bot.service.service.GameService`, which builds the :class:`Tournaments` and :class:`Leavers`
collaborators."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.guard import command
from bot.service.leavers import Leavers
from bot.service.models import Msg, PlayerRef, Result

from . import gone
from .events import Tournaments


class TournamentCommands:
    """A player who left the server or group, or blocked the bot."""

    tournaments: Tournaments
    leavers: Leavers

    @command
    async def player_gone(self, who: PlayerRef, scope_id: str | None = None, channels: Sequence[str] = ()) -> Result:
        """Withdraw ``who`` from the open and running events of his platform (of server or group ``scope_id``
        only, when given); his running match there goes to his opponent at once. When he left ``scope_id``,
        his other running matches there end as his resignation and his challenges there (in ``channels``, the
        ones the frontend knows, too) are withdrawn. The notices go out through the outbox; the Result lists
        the events he left (for logs)."""
        touched = await gone.withdraw(self.tournaments, who, scope_id)
        if scope_id is not None:  # blocking the bot (no scope) leaves his games in the groups as they are
            await self.leavers.leave(who, scope_id, channels)
        return Result(ok=True, messages=[Msg("tournament_player_withdrawn", {"player": who.name, "id": tid})
                                         for tid in touched])

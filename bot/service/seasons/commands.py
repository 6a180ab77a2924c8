"""The season commands of the service (``top season [YYYY-MM]``): a mixin of
:class:`~bot.service.service.GameService`, which builds the :class:`Seasons` collaborator."""

from __future__ import annotations

from bot.service.guard import command
from bot.service.models import Place, Result

from .seasons import Seasons


class SeasonCommands:
    """Read a place's running season or a past season's archive."""

    seasons: Seasons

    @command
    async def season_top(self, place: Place, month: str | None = None, kind: str | None = None) -> Result:
        """The running season's table of this place's board of ``kind`` (None: its ``default_game``), or the
        archive of season ``month`` (``YYYY-MM``)."""
        return await self.seasons.show(place, month, kind)

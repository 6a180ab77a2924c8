"""The platform-neutral game-session service (challenges, games, AI, timers, ratings) over a Store."""

from .models import Action, GameView, Msg, Place, PlayerRef, Result
from .service import GameService

__all__ = ["Action", "GameService", "GameView", "Msg", "Place", "PlayerRef", "Result"]

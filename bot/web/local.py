"""The terminal's player at the board page on his own machine.

When the bot runs the terminal chat, the page it links to plays for the terminal's player, as the Mini App
plays for a Telegram user: but only for a request from a loopback address that names a loopback host (a
web site whose DNS name is rebound to 127.0.0.1 is refused by its Host) and, when the browser says where
the request comes from, from a loopback origin. Everywhere else the page stays read-only without initData.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from aiohttp import web
from yarl import URL

from bot.service.models import PlayerRef

from .snapshots import Snapshot

LOOPBACK_NAMES = frozenset({"localhost"})


@dataclass(frozen=True)
class LocalUser:
    """The terminal's player, vouched for by the request coming from this machine (see :func:`is_local`)."""

    player: PlayerRef


def _loopback(host: str | None) -> bool:
    """True for a loopback address or ``localhost``."""
    if not host:
        return False
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _host_of(value: str) -> str | None:
    """The host part of a ``Host`` header or an ``Origin`` (None when it cannot be read)."""
    try:
        return URL(value if "://" in value else f"http://{value}").host
    except ValueError:
        return None


def is_local(request: web.Request, players: tuple[PlayerRef, ...]) -> bool:
    """True when ``request`` is the terminal's player at this machine: the bot runs the terminal chat
    (``players`` are its players), the peer is a loopback address, the Host is a loopback one and so is the
    Origin when there is one."""
    if not players or not _loopback(request.remote):
        return False
    if not _loopback(_host_of(request.host)):
        return False
    origin = request.headers.get("Origin")
    return origin is None or _loopback(_host_of(origin))


def local_user(snap: Snapshot, players: tuple[PlayerRef, ...]) -> LocalUser:
    """Whom the page plays for in this game: the terminal player to move (a hot-seat game has two at one
    keyboard), else the terminal's first player in it (he waits), else the terminal's own (a spectator)."""
    seated = [p for p in snap.session.players if any(p.same(mine) for mine in players)]
    turn = snap.base.get("turn")
    if isinstance(turn, int) and 0 <= turn < len(snap.session.players) and snap.session.players[turn] in seated:
        return LocalUser(snap.session.players[turn])
    return LocalUser(seated[0] if seated else players[0])

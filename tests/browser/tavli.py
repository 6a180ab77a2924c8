"""Portes and Plakoto games for the browser tests: a real game played with random legal plays (fair dice
from a fixed seed) until it reaches the wanted kind of position, stored over a chat's game as the service
stores sessions, and the engine's position as the viewer sees it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.service import keys
from bot.service.session import Session, decode, encode
from bot.storage.base import Commit, split_versioned
from fevga import Game
from fevga.dice import FairDice
from fevga.variants import TavliPosition

MAX_TURNS = 400


def tavli_game(kind: str, wanted: Callable[[Game], bool], seed: int = 0) -> Game:
    """A ``kind`` game played at random from the start until ``wanted(game)`` (the first seed that gets there)."""
    for attempt in range(seed, seed + 40):
        rng = random.Random(attempt)
        game = Game.new(dice=FairDice(bytes([attempt % 256]) * 32), game=kind)
        for _ in range(MAX_TURNS):
            if game.is_over():
                break
            if wanted(game):
                return game
            game.play(rng.choice(game.legal_plays()))
    raise AssertionError(f"no {kind} game reached the wanted position")


async def store_game(core: Any, game_id: str, game: Game) -> int:
    """Put ``game`` in the stored session ``game_id`` (a new version, as a play would); the new version."""
    key = keys.game(game_id)
    raw = (await core.store.read([("get", key)]))[0]
    version, blob = split_versioned(raw)
    session = decode(blob)
    session.game = game
    session.kind = game.game  # a match of that one game (a tavli rotation is set by the test itself)
    session.pending = []
    assert await core.store.commit(Commit().expect(key, version).put_versioned(key, version + 1, encode(session),
                                                                                keys.LIVE_TTL))
    assert decode(encode(session)).game.position == game.position  # the store keeps the game as it is
    return version + 1


async def change_session(core: Any, game_id: str, change: Callable[[Session], None]) -> int:
    """Store the session ``game_id`` as ``change`` leaves it (a new version, as a play would); the new version."""
    key = keys.game(game_id)
    version, blob = split_versioned((await core.store.read([("get", key)]))[0])
    session = decode(blob)
    change(session)
    assert await core.store.commit(Commit().expect(key, version).put_versioned(key, version + 1, encode(session),
                                                                                keys.LIVE_TTL))
    return version + 1


def tavli_view(game: Game, seat: int) -> dict[str, Any]:
    """The engine's position as the viewer at ``seat`` sees it: signed counts per his point 1-24 (>0 his),
    pins (+1 his checker pinned there, -1 the opponent's), [his bar, opponent's], [his off, opponent's]."""
    return position_view(game.view(seat))


def position_view(pos: Any) -> dict[str, Any]:
    """A Portes/Plakoto position (from its viewer's side) in the terms of :func:`tavli_view`."""
    assert isinstance(pos, TavliPosition)
    return {"points": list(pos.board), "pins": list(pos.pins), "bar": [pos.me_bar, pos.opp_bar],
            "off": [pos.me_off, pos.opp_off]}


# Reads the drawn SVG of a Portes/Plakoto board: per point the holder's checkers (circles, or the number on
# a tall stack) and colour, the pinned checker's colour (or null) and whether it carries the pin mark; the
# bar stacks; the trays; the last play's arrows.
READ_TAVLI = """() => {
  const svg = document.getElementById('board');
  const colourOf = (c) => c.classList.contains('ck0') ? 0 : 1;
  const out = {points: [], bar: [], trays: [], arrows: [], mothers: []};
  for (let p = 1; p <= 24; p++) {
    const g = svg.querySelector(`[data-point="${p}"]`);
    const cks = [...g.querySelectorAll('circle.ck')].filter((c) => !c.classList.contains('pinned'));
    const pinned = g.querySelector('circle.ck.pinned');
    const text = g.querySelector('text.count');
    const n = text ? parseInt(text.textContent, 10) : cks.length;
    out.points.push({n, colour: cks.length ? colourOf(cks[0]) : null, pinned: pinned ? colourOf(pinned) : null,
                     mark: !!g.querySelector('path.pinmark'), pinnedBelow: pinned && cks.length ?
                       (p <= 12 ? +pinned.getAttribute('cy') < +cks[0].getAttribute('cy')
                                : +pinned.getAttribute('cy') > +cks[0].getAttribute('cy')) : null});
    for (const m of g.querySelectorAll('circle.mother')) out.mothers.push([p, colourOf(m)]);
  }
  for (const s of svg.querySelectorAll('[data-point="0"] g.barstack')) {
    const cks = s.querySelectorAll('circle.ck');
    out.bar.push({count: parseInt(s.getAttribute('data-count'), 10), drawn: cks.length,
                  colour: cks.length ? colourOf(cks[0]) : null});
  }
  for (const t of svg.querySelectorAll('g.tray')) out.trays.push(t.querySelectorAll('rect.ck').length);
  for (const a of svg.querySelectorAll('line.arrow'))
    out.arrows.push([a.getAttribute('data-from'), a.getAttribute('data-to'), a.getAttribute('data-hit') === '1']);
  return out;
}"""


async def drawn_tavli(page: Any, viewer_colour: int) -> dict[str, Any]:
    """The page's Portes/Plakoto board in the terms of :func:`tavli_view` (>0: the viewer's colour)."""
    seen = await page.evaluate(READ_TAVLI)
    points = [pt["n"] if pt["colour"] == viewer_colour else -pt["n"] for pt in seen["points"]]
    pins = [0 if pt["pinned"] is None else 1 if pt["pinned"] == viewer_colour else -1 for pt in seen["points"]]
    bar = [seen["bar"][0]["count"], seen["bar"][1]["count"]]
    return {"points": points, "pins": pins, "bar": bar, "off": [seen["trays"][0], seen["trays"][1]], "raw": seen}
